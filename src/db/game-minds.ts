import { err, ok, type Result } from '../result.ts';
import type { Mind } from './game-records.ts';
import { Prisma, type PrismaClient } from './generated/client.ts';
import { GroupCommit } from './group-commit.ts';
import { fromPrismaJson } from './prisma-json.ts';

/** AI players' memory and beliefs, kept on their GamePlayer rows beside the event log. */
export interface GameMinds {
  saveMind(gameId: string, playerId: string, mind: Mind): Promise<Result<void, 'not_found'>>;
  /** Keyed by playerId. */
  loadMinds(gameId: string): Promise<Record<string, Mind>>;
}

interface MindWrite {
  readonly gameId: string;
  readonly playerId: string;
  readonly mind: Mind;
}

/**
 * Every AI seat's mind is saved after each of its decisions: at nightfall, hundreds at once. They go
 * to the database together (`GroupCommit`), one UPDATE for all the seats asked meanwhile, instead of
 * one Prisma transaction each.
 */
function mindsStatement(batch: readonly MindWrite[]): Prisma.Sql {
  const rows = batch.map(({ gameId, playerId, mind }) => ({ gameId, playerId, memory: mind.memory, beliefs: mind.beliefs }));
  return Prisma.sql`
    UPDATE "GamePlayer" AS gp SET "memory" = COALESCE(m."memory", 'null'::jsonb), "beliefs" = COALESCE(m."beliefs", 'null'::jsonb)
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS m("gameId" text, "playerId" text, "memory" jsonb, "beliefs" jsonb)
    WHERE gp."gameId" = m."gameId" AND gp."playerId" = m."playerId"
    RETURNING gp."gameId", gp."playerId"`;
}

export function gameMinds(prisma: PrismaClient): GameMinds {
  const saves = new GroupCommit(
    (write: MindWrite) => `${write.gameId}\u0000${write.playerId}`,
    async (batch): Promise<Result<void, 'not_found'>[]> => {
      const saved = await prisma.$queryRaw<{ gameId: string; playerId: string }[]>(mindsStatement(batch));
      const found = new Set(saved.map((row) => `${row.gameId}\u0000${row.playerId}`));
      return batch.map((write) => (found.has(`${write.gameId}\u0000${write.playerId}`) ? ok(undefined) : err('not_found')));
    },
  );
  return {
    saveMind: (gameId, playerId, mind) => saves.ask({ gameId, playerId, mind }),

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
