import { err, ok, type Result } from '../result.ts';
import type { Mind } from './game-records.ts';
import type { PrismaClient } from './generated/client.ts';
import { fromPrismaJson, toPrismaJson } from './prisma-json.ts';

/** AI players' memory and beliefs, kept on their GamePlayer rows beside the event log. */
export interface GameMinds {
  saveMind(gameId: string, playerId: string, mind: Mind): Promise<Result<void, 'not_found'>>;
  /** Keyed by playerId. */
  loadMinds(gameId: string): Promise<Record<string, Mind>>;
}

export function gameMinds(prisma: PrismaClient): GameMinds {
  return {
    async saveMind(gameId, playerId, mind) {
      const { count } = await prisma.gamePlayer.updateMany({
        where: { gameId, playerId },
        data: { memory: toPrismaJson(mind.memory), beliefs: toPrismaJson(mind.beliefs) },
      });
      return count === 1 ? ok(undefined) : err('not_found');
    },

    async loadMinds(gameId) {
      const rows = await prisma.gamePlayer.findMany({
        where: { gameId },
        select: { playerId: true, memory: true, beliefs: true },
      });
      const minds: Record<string, Mind> = {};
      for (const row of rows) {
        minds[row.playerId] = { memory: fromPrismaJson(row.memory), beliefs: fromPrismaJson(row.beliefs) };
      }
      return minds;
    },
  };
}
