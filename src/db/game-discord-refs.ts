import { err, ok, type Result } from '../result.ts';
import { DISCORD_REF_KINDS, type DiscordRefKind, type DiscordRefs } from './game-records.ts';
import type { PrismaClient } from './generated/client.ts';

/** The Discord messages and threads a game keeps using across restarts. */
export interface GameDiscordRefStore {
  /** Remembers the Discord id of a message or thread the game keeps using; null forgets it. */
  setDiscordRef(gameId: string, kind: DiscordRefKind, discordId: string | null): Promise<Result<void, 'not_found'>>;
  loadDiscordRefs(gameId: string): Promise<DiscordRefs>;
}

export function gameDiscordRefs(prisma: PrismaClient): GameDiscordRefStore {
  return {
    async setDiscordRef(gameId, kind, discordId) {
      if (discordId === null) {
        await prisma.gameDiscordRef.deleteMany({ where: { gameId, kind } });
        return ok(undefined);
      }
      const game = await prisma.game.findUnique({ where: { id: gameId }, select: { id: true } });
      if (game === null) return err('not_found');
      await prisma.gameDiscordRef.upsert({
        where: { gameId_kind: { gameId, kind } },
        create: { gameId, kind, discordId },
        update: { discordId },
      });
      return ok(undefined);
    },

    async loadDiscordRefs(gameId) {
      const rows = await prisma.gameDiscordRef.findMany({ where: { gameId } });
      const refs: DiscordRefs = {};
      // Kinds this version does not know (written by a newer one) are left out, not guessed at.
      for (const row of rows) {
        const kind = DISCORD_REF_KINDS.find((k) => k === row.kind);
        if (kind) refs[kind] = row.discordId;
      }
      return refs;
    },
  };
}
