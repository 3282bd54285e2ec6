import type { PGlite } from '@electric-sql/pglite';
import type { SqlTransaction } from './threaded-pglite.ts';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import type { defineConfig } from 'prisma/config';

type JsEngineConfig = Extract<Parameters<typeof defineConfig>[0], { engine: 'js' }>;
/** The driver-adapter interface of the installed Prisma (6.19). */
export type MigrationAwareAdapterFactory = Awaited<ReturnType<JsEngineConfig['adapter']>>;

/** What the adapter uses of PGlite: PGlite itself, or `ThreadedPGlite` (the same calls on another thread). */
export interface SqlEngine extends Pick<PGlite, 'query' | 'exec'> {
  transaction<T>(callback: (tx: SqlTransaction) => Promise<T>): Promise<T>;
}

/**
 * pglite-prisma-adapter 0.6.1 is typed against @prisma/driver-adapter-utils 6.10,
 * whose `argTypes` were strings; 6.19 sends objects. The adapter never reads
 * argTypes (PGlite infers parameter types), so only the declarations disagree.
 * The store tests exercise this pairing on every run. The cast stays because no release is typed
 * for 6.19: 0.7 needs Prisma 7, and Prisma publishes no PGlite adapter of its own.
 */
export function pgliteAdapter(db: SqlEngine): MigrationAwareAdapterFactory {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment -- the adapter calls only query, exec and transaction (0.6.1); test/db/threaded-pglite.test.ts drives Prisma through ThreadedPGlite
  return new PrismaPGlite(db as PGlite) as unknown as MigrationAwareAdapterFactory;
}
