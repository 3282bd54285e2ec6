/**
 * The database a Discord bench run plays on: PGlite (in this process's memory or directory, or a
 * directory of the bot process), or a schema of its own on a PostgreSQL server, created and
 * migrated for the run and dropped after it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { applyMigrationSql } from '../src/db/apply-migration-sql.ts';
import { openDatabase, type Database } from '../src/db/open-database.ts';

export const BENCH_DATABASES = ['pglite', 'postgres'] as const;
export type BenchDatabase = (typeof BENCH_DATABASES)[number];

/** Where `--db postgres` plays when no URL is given. */
export const DEFAULT_POSTGRES_URL = 'postgres://dramatis:dramatis@127.0.0.1:5432/dramatis_test';

/** A schema name of this run, so runs and test files sharing a database never touch each other's tables. */
function runSchema(): string {
  return `bench_discord_${process.pid}_${Date.now().toString(36)}`;
}

async function onServer(url: string, sql: (client: pg.Client) => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await sql(client);
  } finally {
    await client.end();
  }
}

/** The bench's database, and for a PostgreSQL run the URL of its own schema (for bot processes to share). */
export type OpenBenchDatabase = Database & { readonly url: string | null };

/**
 * Opens the bench's database; `close` also drops the schema a PostgreSQL run made. `onDisk`: PGlite
 * in a fresh directory, as `npm start` keeps it (the stored games are not in the process's memory),
 * removed after the run; otherwise in memory.
 */
export async function openBenchDatabase(
  kind: BenchDatabase,
  postgresUrl = DEFAULT_POSTGRES_URL,
  { onDisk = false } = {},
): Promise<OpenBenchDatabase> {
  if (kind === 'pglite' && onDisk) return openPgliteDirectory();
  if (kind === 'pglite') {
    const opened = await openDatabase({ database: { kind: 'memory' } });
    if (!opened.ok) throw new Error(opened.error);
    return { ...opened.value, url: null };
  }
  const schema = runSchema();
  await onServer(postgresUrl, async (client) => {
    await client.query(`CREATE SCHEMA ${schema}; SET search_path TO ${schema};`);
    await applyMigrationSql((sql) => client.query(sql));
  });
  const scoped = new URL(postgresUrl);
  scoped.searchParams.set('schema', schema);
  const opened = await openDatabase({ database: { kind: 'postgres', url: scoped.toString() } });
  if (!opened.ok) {
    await onServer(postgresUrl, (client) => client.query(`DROP SCHEMA ${schema} CASCADE`).then(() => undefined));
    throw new Error(opened.error);
  }
  return {
    url: scoped.toString(),
    prisma: opened.value.prisma,
    lost: opened.value.lost,
    close: async () => {
      await opened.value.close();
      await onServer(postgresUrl, (client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).then(() => undefined));
    },
  };
}

async function openPgliteDirectory(): Promise<OpenBenchDatabase> {
  const dataDir = await mkdtemp(join(tmpdir(), 'dramatis-bench-'));
  const fresh = new PGlite(dataDir);
  await applyMigrationSql((sql) => fresh.exec(sql));
  await fresh.close();
  const opened = await openDatabase({ database: { kind: 'pglite', dataDir } });
  if (!opened.ok) {
    await rm(dataDir, { recursive: true, force: true });
    throw new Error(opened.error);
  }
  return {
    url: null,
    prisma: opened.value.prisma,
    lost: opened.value.lost,
    close: async () => {
      await opened.value.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The database bot processes play on: what they are told, and how the bench counts the games that ended. */
export interface BotProcessDatabase {
  /** DATABASE_URL (and MIGRATE_ON_START) for the bot processes. */
  readonly env: Readonly<Record<string, string>>;
  /** Whether `ended` may be asked while the bots run (a PGlite directory belongs to its one process). */
  readonly readableWhileRunning: boolean;
  /** How many of these games are stored as ended. */
  ended(ids: readonly string[]): Promise<number>;
  close(): Promise<void>;
}

const endedGames = (db: Database, ids: readonly string[]) => db.prisma.game.count({ where: { id: { in: [...ids] }, status: 'ended' } });

/**
 * For bot processes: a schema of their own on a PostgreSQL server, migrated here from the
 * committed SQL; or a PGlite directory under a fresh temporary one, which the bot process
 * migrates itself at start as `npm start` does (unless `fill` made it, e.g. from a test's
 * migrated template), and which only it may open while it runs.
 */
export async function openBotProcessDatabase(
  kind: BenchDatabase,
  postgresUrl?: string,
  fill?: (dataDir: string) => Promise<void>,
): Promise<BotProcessDatabase> {
  if (kind === 'postgres') {
    const db = await openBenchDatabase('postgres', postgresUrl);
    if (db.url === null) throw new Error('the bench database has no URL for the bot processes');
    return {
      // prisma migrate deploy would need its engine binary: the schema was made from the committed SQL.
      env: { DATABASE_URL: db.url, MIGRATE_ON_START: 'false' },
      readableWhileRunning: true,
      ended: (ids) => endedGames(db, ids),
      close: () => db.close(),
    };
  }
  const root = await mkdtemp(join(tmpdir(), 'dramatis-bench-'));
  const dataDir = join(root, 'pglite');
  await fill?.(dataDir);
  return {
    env: { DATABASE_URL: dataDir, ...(fill && { MIGRATE_ON_START: 'false' }) },
    readableWhileRunning: false,
    ended: async (ids) => {
      const opened = await openDatabase({ database: { kind: 'pglite', dataDir } });
      if (!opened.ok) throw new Error(opened.error);
      try {
        return await endedGames(opened.value, ids);
      } finally {
        await opened.value.close();
      }
    },
    close: () => rm(root, { recursive: true, force: true }),
  };
}
