import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import { err, ok, type Result } from '../result.ts';
import { applyMigrationSql } from './apply-migration-sql.ts';
import type { DatabaseTarget } from '../database-url.ts';
import { pgliteAdapter, type SqlEngine } from './pglite-adapter.ts';
import { ThreadedPGlite } from './threaded-pglite.ts';
import { PrismaClient } from './generated/client.ts';

/**
 * Prisma's defaults (2 s to start, 5 s to finish) undo a transaction on a busy host: PGlite has one
 * connection, so a transaction can queue behind a game's writes for seconds, and an editor save or
 * a persona insert would be lost. These bound a stuck transaction without dropping a slow one.
 */
const TRANSACTIONS = { maxWait: 20_000, timeout: 30_000 } as const;

export interface Database {
  prisma: PrismaClient;
  close(): Promise<void>;
  /**
   * Settles only if the database is gone for good while open: the embedded one's thread stopped
   * (a process restart reopens it). A PostgreSQL pool reconnects by itself, so there it never does.
   */
  lost: Promise<string>;
}

const NEVER = new Promise<never>(() => undefined);

/**
 * Connects to the configured database and checks it answers. The PGlite
 * directory and PostgreSQL must already be migrated (`npm run db:migrate`,
 * which `npm start` runs first); in-memory PGlite is migrated here because
 * nothing else can reach it.
 * Only one process may open a PGlite directory at a time.
 */
export async function openDatabase(config: { database: DatabaseTarget }): Promise<Result<Database, string>> {
  const target = config.database;
  let pglite: ThreadedPGlite | null = null;
  let prisma: PrismaClient | null = null;
  try {
    if (target.kind === 'postgres') {
      const { connectionString, schema } = splitSchemaParam(target.url);
      // Prisma names the schema in its own queries; the search path makes raw SQL (the game append) find it too.
      const pool = { connectionString, ...(schema && { options: `-c search_path=${searchPathOption(schema)}` }) };
      prisma = new PrismaClient({ adapter: new PrismaPg(pool, schema ? { schema } : undefined), transactionOptions: TRANSACTIONS });
    } else {
      pglite = target.kind === 'memory' ? new ThreadedPGlite({ dataDir: null, loadDataDir: null }) : openPgliteDir(target.dataDir);
      if (target.kind === 'memory') {
        const db = pglite;
        await applyMigrationSql((sql) => db.exec(sql));
      }
      prisma = prismaOn(pglite);
    }
    await prisma.$queryRawUnsafe('SELECT 1');
  } catch (error) {
    await closeQuietly(prisma, pglite);
    return err(`cannot open the ${describe(target)}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return ok(wrap(prisma, pglite));
}

/** A Prisma client on an open PGlite, with the bot's transaction bounds; the test suite's copies of its template databases use it too. */
export function prismaOn(pglite: SqlEngine): PrismaClient {
  return new PrismaClient({ adapter: pgliteAdapter(pglite), transactionOptions: TRANSACTIONS });
}

function wrap(client: PrismaClient, embedded: ThreadedPGlite | null): Database {
  return {
    prisma: client,
    lost: embedded === null ? NEVER : embedded.lost.then((cause) => `the embedded PGlite database stopped: ${cause.message}`),
    close: async () => {
      await client.$disconnect();
      // The PGlite thread keeps Node alive until it is closed.
      if (embedded !== null && !embedded.closed) await embedded.close();
    },
  };
}

/** Prisma's `?schema=` URL parameter picks the schema; pg itself must not see it. */
export function splitSchemaParam(url: string): { connectionString: string; schema: string | null } {
  try {
    const parsed = new URL(url);
    const schema = parsed.searchParams.get('schema');
    parsed.searchParams.delete('schema');
    return { connectionString: parsed.toString(), schema: schema || null };
  } catch {
    return { connectionString: url, schema: null };
  }
}

/** A schema as the value of a `-c search_path=` start-up option: a quoted identifier, spaces and backslashes escaped. */
function searchPathOption(schema: string): string {
  return `"${schema.replaceAll('"', '""')}"`.replace(/[\\ ]/g, (c) => `\\${c}`);
}

function openPgliteDir(dataDir: string): ThreadedPGlite {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  return new ThreadedPGlite({ dataDir: dir, loadDataDir: null });
}

async function closeQuietly(prisma: PrismaClient | null, pglite: ThreadedPGlite | null): Promise<void> {
  await prisma?.$disconnect().catch(() => undefined);
  if (pglite !== null && !pglite.closed) await pglite.close().catch(() => undefined);
}

function describe(target: DatabaseTarget): string {
  switch (target.kind) {
    case 'memory':
      return 'in-memory PGlite database';
    case 'pglite':
      return `PGlite database in ${resolve(target.dataDir)}`;
    case 'postgres':
      return `PostgreSQL database at ${redactUrl(target.url)}`;
  }
}

function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'an unparsable URL';
  }
}
