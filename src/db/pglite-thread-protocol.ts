/**
 * What the bot's thread and the PGlite thread (`pglite-thread.mjs`) say to each other. Everything
 * here crosses `postMessage`, so it is data only: no functions, no class instances.
 */

/** Given to the thread at its start. */
export interface ThreadStart {
  /** Where its database lives; `null` keeps it in memory. */
  readonly dataDir: string | null;
  /** A dump (`dumpDataDir`) to start from, by path: a file's Blob cannot cross threads. */
  readonly loadDataDir: string | null;
}

interface Read {
  /** The open transaction the statement belongs to, or `null` outside one. */
  readonly tx: number | null;
  readonly sql: string;
  readonly rowMode: 'array' | 'object' | undefined;
  /** Types whose values come back as Postgres text: the caller's own parsers read them (functions cannot cross threads). */
  readonly rawTypes: readonly number[];
}

export type ThreadRequest =
  | ({ readonly id: number; readonly op: 'query'; readonly params: readonly unknown[] } & Read)
  | ({ readonly id: number; readonly op: 'exec' } & Read)
  | { readonly id: number; readonly op: 'begin' }
  | { readonly id: number; readonly op: 'rollback'; readonly tx: number }
  | { readonly id: number; readonly op: 'end'; readonly tx: number; readonly commit: boolean }
  | { readonly id: number; readonly op: 'close' };

/** Postgres' error fields, as PGlite's `DatabaseError` carries them. */
export const DATABASE_ERROR_FIELDS = [
  'severity',
  'code',
  'detail',
  'hint',
  'position',
  'internalPosition',
  'internalQuery',
  'where',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
  'file',
  'line',
  'routine',
] as const;

export type ThreadError =
  | {
      readonly kind: 'database';
      readonly message: string;
      readonly length: number;
      readonly name: string;
      readonly fields: Partial<Record<(typeof DATABASE_ERROR_FIELDS)[number], string>>;
    }
  | { readonly kind: 'other'; readonly message: string; readonly stack: string | undefined };

/** The answer to request `id`; id 0 is the thread's own start (ready, or why not). */
export type ThreadReply =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly id: number; readonly ok: false; readonly error: ThreadError };
