import type { Result } from '../result.ts';
import type { DatabaseTarget } from '../database-url.ts';
import { deployMigrations } from './deploy-migrations.ts';
import { openDatabase, type Database } from './open-database.ts';

/** What a process does at boot: bring the schema up to date, then connect. */
export async function prepareDatabase(target: DatabaseTarget): Promise<Result<Database, string>> {
  // In-memory PGlite lives inside this process, so openDatabase migrates it.
  if (target.kind !== 'memory') {
    const migrated = await deployMigrations(target);
    if (!migrated.ok) return migrated;
  }
  return openDatabase({ database: target });
}
