import { setImmediate as nextTurn } from 'node:timers/promises';
import { PGlite, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';
import { isUrgent } from './db-priority.ts';

/**
 * One operation at a time (PGlite runs one anyway), each on a turn of the event loop of its own:
 * urgent ones (`urgently`) first, then the rest in the order asked.
 */
class Turns {
  private busy = false;
  private readonly urgent: (() => void)[] = [];
  private readonly normal: (() => void)[] = [];

  async enter(): Promise<void> {
    if (this.busy) {
      await new Promise<void>((resolve) => (isUrgent() ? this.urgent : this.normal).push(resolve));
      return;
    }
    this.busy = true;
    await nextTurn();
  }

  leave(): void {
    const next = this.urgent.shift() ?? this.normal.shift();
    if (next) setImmediate(next);
    else this.busy = false;
  }
}

/**
 * Embedded PGlite whose work is spread over turns of the event loop. PGlite runs in this thread and
 * its queries never wait on I/O: many games' queries at once (every game writes at nightfall) would
 * otherwise run back to back as one chain of microtasks, holding the thread until the backlog
 * drained, every interaction's acknowledgement waiting behind. Here one query (a top-level one, or
 * one step of a transaction) runs per turn, so what arrived meanwhile (an interaction) goes in
 * between, and the store a person waits on goes before the backlog.
 */
export class YieldingPGlite extends PGlite {
  private readonly turns = new Turns();

  /** Not before PGlite is ready: its start-up runs queries of its own through these methods, which must not wait behind a caller waiting for it. */
  private async takeTurn(): Promise<void> {
    if (!this.ready) await this.waitReady;
    await this.turns.enter();
  }

  override async query<T>(query: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    await this.takeTurn();
    try {
      return await super.query<T>(query, params, options);
    } finally {
      this.turns.leave();
    }
  }

  override async exec(query: string, options?: QueryOptions): Promise<Results[]> {
    await this.takeTurn();
    try {
      return await super.exec(query, options);
    } finally {
      this.turns.leave();
    }
  }

  /** A transaction is one operation (PGlite holds its lock throughout); each of its queries lets the event loop turn first. */
  override async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    await this.takeTurn();
    try {
      return await super.transaction((tx) => callback(stepByStep(tx)));
    } finally {
      this.turns.leave();
    }
  }
}

/** The transaction, each of its queries on a turn of its own (the rest of it, `closed` included, is the transaction's). */
function stepByStep(tx: Transaction): Transaction {
  const wrapped: Transaction = Object.create(tx) as Transaction;
  wrapped.query = async <T>(query: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> => {
    await nextTurn();
    return tx.query<T>(query, params, options);
  };
  wrapped.exec = async (query: string, options?: QueryOptions): Promise<Results[]> => {
    await nextTurn();
    return tx.exec(query, options);
  };
  return wrapped;
}
