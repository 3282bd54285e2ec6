import { err, ok, type Result } from '../result.ts';
import type { GameProjection, StoredEvent } from './game-records.ts';
import { appendStatement, type AppendOutcome, type AppendRequest } from './game-append-statement.ts';
import { isUrgent, urgently } from './db-priority.ts';
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
   * changed since be rewritten (most commands change none).
   */
  append(
    gameId: string,
    expectedLastSeq: number,
    events: readonly StoredEvent[],
    projection: GameProjection,
    previous?: GameProjection,
  ): Promise<Result<void, 'conflict' | 'not_found'>>;
  /** Ordered by seq. */
  loadEvents(gameId: string): Promise<StoredEvent[]>;
}

export function gameEventLog(prisma: PrismaClient): GameEventLog {
  const appends = new AppendQueue(prisma);
  return {
    async append(gameId, expectedLastSeq, events, projection, previous) {
      assertContiguous(expectedLastSeq, events);
      return appends.append({ gameId, expectedLastSeq, events, projection, previous });
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

type AppendResult = Result<void, 'conflict' | 'not_found'>;

interface Queued {
  readonly request: AppendRequest;
  readonly urgent: boolean;
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

/** At most this many games' appends in one statement. */
const MAX_BATCH = 200;

/**
 * Group commit: the appends asked while one is being written go together in the next statement,
 * each game still on its own compare-and-set. At nightfall every game writes at once; one
 * statement for all of them costs the database a fraction of one each. An urgent append (a person
 * waiting) makes its whole statement urgent.
 */
class AppendQueue {
  private queued: Queued[] = [];
  private writing = false;

  constructor(private readonly prisma: PrismaClient) {}

  append(request: AppendRequest): Promise<AppendResult> {
    return new Promise((resolve, reject) => {
      this.queued.push({ request, urgent: isUrgent(), resolve, reject });
      this.start();
    });
  }

  private start(): void {
    if (this.writing) return;
    this.writing = true;
    // On the next turn: the appends asked in this one go together.
    setImmediate(() => void this.drain());
  }

  private async drain(): Promise<void> {
    try {
      while (this.queued.length > 0) await this.write(this.nextBatch());
    } finally {
      this.writing = false;
      if (this.queued.length > 0) this.start();
    }
  }

  /** The oldest append of each game (one game's appends come one at a time anyway; a second waits for the next statement). */
  private nextBatch(): Queued[] {
    const batch: Queued[] = [];
    const games = new Set<string>();
    const rest: Queued[] = [];
    for (const queued of this.queued) {
      if (batch.length < MAX_BATCH && !games.has(queued.request.gameId)) {
        games.add(queued.request.gameId);
        batch.push(queued);
      } else rest.push(queued);
    }
    this.queued = rest;
    return batch;
  }

  private async write(batch: readonly Queued[]): Promise<void> {
    const run = () => this.prisma.$queryRaw<AppendOutcome[]>(appendStatement(batch.map((queued) => queued.request)));
    let outcomes: AppendOutcome[];
    try {
      outcomes = await (batch.some((queued) => queued.urgent) ? urgently(run) : run());
    } catch (error) {
      const [only] = batch;
      if (batch.length === 1 && only) {
        only.reject(error);
        return;
      }
      // One bad append (or a deadlock with another process) must not fail the others: each is tried alone.
      for (const queued of batch) await this.write([queued]);
      return;
    }
    const byGame = new Map(outcomes.map((outcome) => [outcome.gameId, outcome]));
    for (const queued of batch) {
      const outcome = byGame.get(queued.request.gameId);
      queued.resolve(outcome?.claimed ? ok(undefined) : err(outcome?.exists ? 'conflict' : 'not_found'));
    }
  }
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
