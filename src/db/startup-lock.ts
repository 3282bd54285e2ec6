import pg from 'pg';
import type { DatabaseTarget } from '../database-url.ts';
import { splitSchemaParam } from './open-database.ts';

/** One key for every process of this bot on a database (advisory locks are per database). */
const STARTUP_LOCK_KEY = 0x44_52_41_4d; // "DRAM"

/**
 * Runs the start-up steps that write shared rows (migrating, the starter pack) in one process at a
 * time: shard processes started together on one PostgreSQL server take turns instead of racing.
 * PGlite belongs to one process anyway, so there it just runs.
 */
export async function withStartupLock<T>(target: DatabaseTarget, work: () => Promise<T>): Promise<T> {
  if (target.kind !== 'postgres') return work();
  const client = new pg.Client({ connectionString: splitSchemaParam(target.url).connectionString });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
    return await work();
  } finally {
    // Closing the session releases the lock too, so a failed unlock loses nothing.
    await client.query('SELECT pg_advisory_unlock($1)', [STARTUP_LOCK_KEY]).catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}
