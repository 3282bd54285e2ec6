import type { PrismaClient } from './generated/client.ts';

/** A persona's seat at a table that has not started yet. */
export interface LobbySeat {
  readonly gameId: string;
  readonly guildId: string | null;
  readonly channelId: string;
  /** The engine's id of the seat. */
  readonly playerId: string;
}

/** Where personas sit: deleting one must free its lobby seats first (a seat would play a persona that no longer exists). */
export interface PersonaSeats {
  lobbySeatsOf(personaId: string): Promise<LobbySeat[]>;
}

export function personaSeats(prisma: PrismaClient): PersonaSeats {
  return {
    async lobbySeatsOf(personaId) {
      const rows = await prisma.gamePlayer.findMany({
        where: { personaId, game: { status: 'lobby', channelId: { not: null } } },
        select: { playerId: true, game: { select: { id: true, guildId: true, channelId: true } } },
        orderBy: { game: { createdAt: 'asc' } },
      });
      return rows.flatMap(({ playerId, game }) =>
        game.channelId === null ? [] : [{ gameId: game.id, guildId: game.guildId, channelId: game.channelId, playerId }],
      );
    },
  };
}
