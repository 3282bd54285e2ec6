import { err, ok, type Result } from '../result.ts';
import type { GameProjection, StoredEvent, StoredRewrite } from './game-records.ts';
import { appendStatement, type AppendOutcome, type AppendRequest } from './game-append-statement.ts';
import { GroupCommit } from './group-commit.ts';
import type { PrismaClient } from './generated/client.ts';
import { fromPrismaJson } from './prisma-json.ts';

/** A game's append-only event log, with the projection rewritten in the same transaction. */
export interface GameEventLog {
  /**
   * Appends events whose seqs continue exactly from `expectedLastSeq` (0 when the
   * game has none) and replaces the projection, atomically. Players missing from
   * the projection are deleted; AI minds of the others are left alone.
   * A writer whose `expectedLastSeq` is stale gets 'conflict' and writes nothing.
   * `previous`, the projection stored with `expectedLastSeq`, lets only the players that
   * changed since be rewritten (most commands change none). `rewrites` are earlier events these
   * ones change (an edited or deleted speech): their payloads are written over in the same
   * statement, so withdrawn words are never stored beside the event that withdrew them.
   */
  append(
    gameId: string,
    expectedLastSeq: number,
    events: readonly StoredEvent[],
    projection: GameProjection,
    previous?: GameProjection,
    rewrites?: readonly StoredRewrite[],
  ): Promise<Result<void, 'conflict' | 'not_found'>>;
  /** Ordered by seq. */
  loadEvents(gameId: string): Promise<StoredEvent[]>;
}

/** How a game's appends are committed (see ASYNCHRONOUS_COMMIT in game-append-statement.ts). */
export interface GameWriteOptions {
  /** Wait for each append's commit record to reach the database server's disk (default false: the server's memory). */
  readonly waitForDisk?: boolean;
}

export function gameEventLog(prisma: PrismaClient, options: GameWriteOptions = {}): GameEventLog {
  // Each game's appends in order, every game's together.
  const appends = new GroupCommit(
    (request: AppendRequest) => request.gameId,
    async (batch): Promise<Result<void, 'conflict' | 'not_found'>[]> => {
      const outcomes = await prisma.$queryRaw<AppendOutcome[]>(appendStatement(batch, options));
      const byGame = new Map(outcomes.map((outcome) => [outcome.gameId, outcome]));
      return batch.map((request) => {
        const outcome = byGame.get(request.gameId);
        return outcome?.claimed ? ok(undefined) : err(outcome?.exists ? 'conflict' : 'not_found');
      });
    },
  );
  return {
    async append(gameId, expectedLastSeq, events, projection, previous, rewrites) {
      assertContiguous(expectedLastSeq, events);
      assertEarlier(expectedLastSeq, rewrites ?? []);
      return appends.ask({ gameId, expectedLastSeq, events, projection, previous, rewrites });
    },

    async loadEvents(gameId) {
      const rows = await prisma.gameEvent.findMany({ where: { gameId }, orderBy: { seq: 'asc' } });
      return rows.map((row) => ({
        seq: row.seq,
        type: row.type,
        at: row.at.getTime(),
        visibility: fromPrismaJson(row.visibility),
        payload: fromPrismaJson(row.payload),
      }));
    },
  };
}

/** Gaps or repeats in seqs are a caller bug, not a race, so they throw. */
function assertContiguous(expectedLastSeq: number, events: readonly StoredEvent[]): void {
  if (!Number.isInteger(expectedLastSeq) || expectedLastSeq < 0) {
    throw new RangeError(`expectedLastSeq must be a non-negative integer, got ${expectedLastSeq}`);
  }
  events.forEach((event, index) => {
    const wanted = expectedLastSeq + 1 + index;
    if (event.seq !== wanted) {
      throw new RangeError(`event #${index} (${event.type}) has seq ${event.seq}, expected ${wanted}`);
    }
  });
}

/** A rewrite names an event already stored; anything else is a caller bug. */
function assertEarlier(expectedLastSeq: number, rewrites: readonly StoredRewrite[]): void {
  for (const rewrite of rewrites) {
    if (!Number.isInteger(rewrite.seq) || rewrite.seq < 1 || rewrite.seq > expectedLastSeq) {
      throw new RangeError(`a rewrite of event ${rewrite.seq} after ${expectedLastSeq} stored events`);
    }
  }
}
