import { ok, type Result } from '../result.ts';
import type { DatabaseTarget } from '../database-url.ts';
import { deployMigrations } from './deploy-migrations.ts';
import { lockDirectory } from './directory-lock.ts';
import { openDatabase, type Database } from './open-database.ts';

/**
 * What the bot does at boot: claim a PGlite directory for itself, bring the schema up to date
 * (unless `migrate` is off: a sharding manager already did, or the operator does it per release), then connect.
 */
export async function prepareDatabase(
  target: DatabaseTarget,
  { migrate = true }: { migrate?: boolean } = {},
): Promise<Result<Database, string>> {
  const lock = target.kind === 'pglite' ? lockDirectory(target.dataDir) : null;
  if (lock && !lock.ok) return lock;
  const release = () => {
    if (lock?.ok) lock.value.release();
  };
  // In-memory PGlite lives inside this process, so openDatabase migrates it.
  if (target.kind !== 'memory' && migrate) {
    const migrated = await deployMigrations(target);
    if (!migrated.ok) {
      release();
      return migrated;
    }
  }
  const opened = await openDatabase({ database: target });
  if (!opened.ok) {
    release();
    return opened;
  }
  const db = opened.value;
  return ok({
    prisma: db.prisma,
    lost: db.lost,
    close: async () => {
      await db.close();
      release();
    },
  });
}
