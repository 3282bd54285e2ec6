import { isUrgent, urgently } from './db-priority.ts';

interface Queued<Req, Out> {
  readonly request: Req;
  readonly urgent: boolean;
  resolve(outcome: Out): void;
  reject(error: unknown): void;
}

/** At most this many requests in one statement. */
const MAX_BATCH = 200;

/**
 * Group commit: the writes asked while one statement is being written go together in the next,
 * each still on its own terms. At nightfall every game writes at once; one statement for all of
 * them costs the database a fraction of one each. An urgent write (a person waiting, `urgently`)
 * makes its whole statement urgent.
 *
 * - `key`: requests with the same key go in different statements, in the order asked (a game's
 *   appends, a player's mind), so each sees the one before it stored.
 * - `write`: one statement for the batch, answering each request's outcome in the batch's order.
 *   A statement that fails is tried again one request at a time, so one bad request (or a deadlock
 *   with another process) fails only itself.
 */
export class GroupCommit<Req, Out> {
  private queued: Queued<Req, Out>[] = [];
  private writing = false;

  constructor(
    private readonly key: (request: Req) => string,
    private readonly write: (batch: readonly Req[]) => Promise<readonly Out[]>,
  ) {}

  ask(request: Req): Promise<Out> {
    return new Promise((resolve, reject) => {
      this.queued.push({ request, urgent: isUrgent(), resolve, reject });
      this.start();
    });
  }

  private start(): void {
    if (this.writing) return;
    this.writing = true;
    // On the next turn: the requests asked in this one go together.
    setImmediate(() => void this.drain());
  }

  private async drain(): Promise<void> {
    try {
      while (this.queued.length > 0) await this.commit(this.nextBatch());
    } finally {
      this.writing = false;
      if (this.queued.length > 0) this.start();
    }
  }

  /** The oldest request of each key; the others wait for a later statement. */
  private nextBatch(): Queued<Req, Out>[] {
    const batch: Queued<Req, Out>[] = [];
    const keys = new Set<string>();
    const rest: Queued<Req, Out>[] = [];
    for (const queued of this.queued) {
      const key = this.key(queued.request);
      if (batch.length < MAX_BATCH && !keys.has(key)) {
        keys.add(key);
        batch.push(queued);
      } else rest.push(queued);
    }
    this.queued = rest;
    return batch;
  }

  private async commit(batch: readonly Queued<Req, Out>[]): Promise<void> {
    const run = () => this.write(batch.map((queued) => queued.request));
    let outcomes: readonly Out[];
    try {
      outcomes = await (batch.some((queued) => queued.urgent) ? urgently(run) : run());
    } catch (error) {
      const [only] = batch;
      if (batch.length === 1 && only) {
        only.reject(error);
        return;
      }
      for (const queued of batch) await this.commit([queued]);
      return;
    }
    batch.forEach((queued, index) => {
      const outcome = outcomes[index];
      if (outcome === undefined) queued.reject(new Error('the statement answered fewer rows than it was asked'));
      else queued.resolve(outcome);
    });
  }
}
