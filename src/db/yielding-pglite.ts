import { setImmediate as nextTurn } from 'node:timers/promises';
import { PGlite, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';

/**
 * Embedded PGlite, each query first letting the event loop turn. PGlite runs in this thread and its
 * queries never wait on I/O, so queries awaited one after another form one unbroken chain of
 * microtasks: a backlog of writes (every game's at nightfall) would hold the thread until it
 * drained, every interaction's acknowledgement waiting behind it. With a turn before each query,
 * what arrived meanwhile (an interaction, its acknowledgement) goes in between.
 */
export class YieldingPGlite extends PGlite {
  override async query<T>(query: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    await nextTurn();
    return super.query<T>(query, params, options);
  }

  override async exec(query: string, options?: QueryOptions): Promise<Results[]> {
    await nextTurn();
    return super.exec(query, options);
  }

  override async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    await nextTurn();
    return super.transaction((tx) => callback(yieldingTransaction(tx)));
  }
}

/** The transaction's own queries turn the event loop too (the rest of it, `closed` included, is the transaction's). */
function yieldingTransaction(tx: Transaction): Transaction {
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
