import { Worker } from 'node:worker_threads';
import { messages, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';
import { Turns } from './db-turns.ts';
import {
  DATABASE_ERROR_FIELDS,
  type ThreadError,
  type ThreadReply,
  type ThreadRequest,
  type ThreadStart,
} from './pglite-thread-protocol.ts';

type Parsers = NonNullable<QueryOptions['parsers']>;
/** What the Prisma adapter and the bot use of PGlite. */
export type SqlTransaction = Pick<Transaction, 'query' | 'exec' | 'rollback' | 'closed'>;
type Request = ThreadRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/**
 * Embedded PGlite run on a thread of its own. PGlite is Postgres compiled to WASM: its queries
 * never wait on I/O, so in the bot's thread they held the event loop (a fifth of its time in a
 * 100-game bench) and every interaction's acknowledgement queued behind them. Here the bot's thread
 * only sends statements and reads answers.
 *
 * One operation at a time, as PGlite runs them: the ones a person waits on (`urgently`) first,
 * then the rest in the order asked. A transaction is one operation, its statements sent while it
 * holds its turn.
 */
export class ThreadedPGlite {
  private readonly worker: Worker;
  private readonly turns = new Turns();
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private stopped: Error | null = null;
  private closing: Promise<void> | null = null;
  /** Settles when the thread's database is open (or could not be). */
  readonly waitReady: Promise<void>;
  /** Settles only if the thread stops while the database is open (it crashed): what stopped it. */
  readonly lost: Promise<Error>;
  private markLost: (cause: Error) => void = () => undefined;

  /** `spawn` starts the thread; tests pass their own to hold it. */
  constructor(start: ThreadStart, spawn: (start: ThreadStart) => Worker = startThread) {
    this.worker = spawn(start);
    this.lost = new Promise<Error>((resolve) => (this.markLost = resolve));
    this.waitReady = new Promise<void>((resolve, reject) => this.waiting.set(0, { resolve: () => resolve(), reject }));
    // A caller that never queries must not leave the start's failure unhandled.
    this.waitReady.catch(() => undefined);
    this.worker.on('message', (reply: ThreadReply) => this.settle(reply));
    this.worker.on('error', (error) => this.stop(error));
    this.worker.on('exit', (code) => this.stop(new Error(`the PGlite thread exited (code ${code})`)));
  }

  get closed(): boolean {
    return this.closing !== null || this.stopped !== null;
  }

  async query<T>(sql: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    return this.inTurn(() => this.read<Results<T>>('query', null, sql, params, options));
  }

  async exec(sql: string, options?: QueryOptions): Promise<Results[]> {
    return this.inTurn(() => this.read<Results[]>('exec', null, sql, [], options));
  }

  /** Commits when `callback` resolves, rolls back when it throws or has called `rollback`. */
  async transaction<T>(callback: (tx: SqlTransaction) => Promise<T>): Promise<T> {
    return this.inTurn(async () => {
      const id = (await this.send({ op: 'begin' })) as number;
      let ended = false;
      const tx: SqlTransaction = {
        query: <R>(sql: string, params: unknown[] = [], options?: QueryOptions) => this.read<Results<R>>('query', id, sql, params, options),
        exec: (sql: string, options?: QueryOptions) => this.read<Results[]>('exec', id, sql, [], options),
        rollback: async () => {
          await this.send({ op: 'rollback', tx: id });
          ended = true;
        },
        get closed() {
          return ended;
        },
      };
      let value: T;
      try {
        value = await callback(tx);
      } catch (error) {
        await this.send({ op: 'end', tx: id, commit: false }).catch(() => undefined);
        throw error;
      }
      await this.send({ op: 'end', tx: id, commit: true });
      return value;
    });
  }

  /** Waits for the operation running now, closes the database and ends the thread. */
  close(): Promise<void> {
    this.closing ??= this.closeNow();
    return this.closing;
  }

  private async closeNow(): Promise<void> {
    if (this.stopped === null) {
      await this.turns.enter();
      try {
        await this.send({ op: 'close' }).catch(() => undefined);
      } finally {
        this.turns.leave();
      }
    }
    await this.worker.terminate();
  }

  private async inTurn<T>(operation: () => Promise<T>): Promise<T> {
    if (this.closing !== null) throw new Error('the PGlite database is closed');
    await this.waitReady;
    await this.turns.enter();
    try {
      return await operation();
    } finally {
      this.turns.leave();
    }
  }

  private async read<R>(op: 'query' | 'exec', tx: number | null, sql: string, params: unknown[], options?: QueryOptions): Promise<R> {
    const parsers: Parsers = options?.parsers ?? {};
    const rawTypes = Object.keys(parsers).map(Number);
    const base = { tx, sql, rowMode: options?.rowMode, rawTypes };
    const answer = await this.send(op === 'query' ? { op, params, ...base } : { op, ...base });
    if (rawTypes.length === 0) return answer as R;
    if (op === 'query') return parseRaw(answer as Results, parsers) as R;
    return (answer as Results[]).map((results) => parseRaw(results, parsers)) as R;
  }

  private send(request: Request): Promise<unknown> {
    if (this.stopped !== null) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id });
    });
  }

  private settle(reply: ThreadReply): void {
    // A thread that could not start says why once: everything asked of it fails for that reason.
    if (reply.id === 0 && !reply.ok) {
      this.stop(rebuild(reply.error));
      return;
    }
    const waiter = this.waiting.get(reply.id);
    if (waiter === undefined) return;
    this.waiting.delete(reply.id);
    if (reply.ok) waiter.resolve(reply.value);
    else waiter.reject(rebuild(reply.error));
  }

  /** The thread is gone: everything still waiting fails, and so does everything asked later. */
  private stop(cause: Error): void {
    // Lost only once open (the start's reply came): a start that failed is told through `waitReady`.
    const open = !this.waiting.has(0) && this.stopped === null && this.closing === null;
    if (open) this.markLost(cause);
    this.stopped ??= cause;
    for (const waiter of this.waiting.values()) waiter.reject(this.stopped);
    this.waiting.clear();
  }
}

function startThread(start: ThreadStart): Worker {
  return new Worker(new URL('./pglite-thread.mjs', import.meta.url), { workerData: start });
}

/** The caller's parsers applied to the values the thread left as text (it parsed the rest itself). */
function parseRaw(results: Results, parsers: Parsers): Results {
  results.fields.forEach((field, column) => {
    const parse = parsers[field.dataTypeID];
    if (parse === undefined) return;
    for (const row of results.rows as Record<string | number, unknown>[]) {
      const key = Array.isArray(row) ? column : field.name;
      const text = row[key];
      if (text !== null) row[key] = parse(text as string);
    }
  });
  return results;
}

/** A Postgres error as PGlite raises it, so callers (the Prisma adapter) recognise it across the thread. */
function rebuild(error: ThreadError): Error {
  if (error.kind === 'other') {
    const rebuilt = new Error(error.message);
    if (error.stack !== undefined) rebuilt.stack = error.stack;
    return rebuilt;
  }
  const rebuilt = new messages.DatabaseError(error.message, error.length, error.name as messages.DatabaseError['name']);
  for (const field of DATABASE_ERROR_FIELDS) rebuilt[field] = error.fields[field];
  return rebuilt;
}
