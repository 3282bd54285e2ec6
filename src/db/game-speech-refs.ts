import { Prisma, type PrismaClient } from './generated/client.ts';

/** Where a deleted message's words may still be stored once its game has ended. */
export interface GameSpeechRefs {
  /**
   * Ended games of this channel (or of which it was the Mafia thread) whose log took one of these
   * messages as a speech. Asked for every deletion in a channel without a live game, so it reads
   * only that channel's ended games.
   */
  endedGamesHolding(channelId: string, refs: readonly string[]): Promise<string[]>;
}

export function gameSpeechRefs(prisma: PrismaClient): GameSpeechRefs {
  return {
    async endedGamesHolding(channelId, refs) {
      if (refs.length === 0) return [];
      const rows = await prisma.$queryRaw<{ gameId: string }[]>(Prisma.sql`
        SELECT DISTINCT e."gameId"
        FROM "Game" AS g JOIN "GameEvent" AS e ON e."gameId" = g."id"
        WHERE g."status" = 'ended'
          AND (g."channelId" = ${channelId}
            OR EXISTS (SELECT 1 FROM "GameDiscordRef" AS r WHERE r."gameId" = g."id" AND r."kind" = 'mafia_thread' AND r."discordId" = ${channelId}))
          AND e."type" = 'speech' AND e."payload"->>'ref' = ANY(${[...refs]}::text[])`);
      return rows.map((row) => row.gameId);
    },
  };
}
