import type { PlayerProjection } from './game-records.ts';
import type { Prisma } from './generated/client.ts';

function samePlayer(a: PlayerProjection, b: PlayerProjection | undefined): boolean {
  return b !== undefined && (Object.keys(a) as (keyof PlayerProjection)[]).every((key) => a[key] === b[key]);
}

/**
 * Brings the GamePlayer rows to `players`. With the `previous` rows known (the compare-and-set on
 * lastSeq guarantees they are what is stored), only the differences are written: every statement
 * holds the game's row lock, and with an embedded database every other game's too.
 */
export async function replacePlayers(
  tx: Prisma.TransactionClient,
  gameId: string,
  players: readonly PlayerProjection[],
  previous?: readonly PlayerProjection[],
): Promise<void> {
  const ids = new Set(players.map((player) => player.playerId));
  if (previous === undefined || previous.some((player) => !ids.has(player.playerId))) {
    await tx.gamePlayer.deleteMany({ where: { gameId, playerId: { notIn: [...ids] } } });
  }
  const before = new Map((previous ?? []).map((player) => [player.playerId, player]));
  for (const player of players) {
    if (previous !== undefined && samePlayer(player, before.get(player.playerId))) continue;
    const fields = {
      seat: player.seat,
      displayName: player.displayName,
      kind: player.kind,
      userId: player.userId,
      personaId: player.personaId,
      role: player.role,
      alive: player.alive,
      lastWill: player.lastWill,
    };
    await tx.gamePlayer.upsert({
      where: { gameId_playerId: { gameId, playerId: player.playerId } },
      create: { gameId, playerId: player.playerId, ...fields },
      update: fields,
    });
  }
}
