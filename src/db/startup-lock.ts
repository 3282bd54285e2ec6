import pg from 'pg';
import type { DatabaseTarget } from '../database-url.ts';
import { splitSchemaParam } from './open-database.ts';

/** The lock's name: one per schema, since advisory locks are per database and bots on other schemas are not in the way. */
export function startupLockName(schema: string | null): string {
  return `dramatis-startup:${schema ?? 'public'}`;
}

/**
 * Runs the start-up steps that write shared rows (migrating, the starter pack) in one process at a
 * time: shard processes started together on one PostgreSQL server take turns instead of racing.
 * PGlite belongs to one process anyway, so there it just runs.
 */
export async function withStartupLock<T>(target: DatabaseTarget, work: () => Promise<T>): Promise<T> {
  if (target.kind !== 'postgres') return work();
  const { connectionString, schema } = splitSchemaParam(target.url);
  const key = startupLockName(schema);
  const client = new pg.Client({ connectionString });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [key]);
    return await work();
  } finally {
    // Closing the session releases the lock too, so a failed unlock loses nothing.
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [key]).catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}
