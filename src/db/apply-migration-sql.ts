import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MIGRATIONS_DIR = fileURLToPath(new URL('../../prisma/migrations/', import.meta.url));

/**
 * Runs every committed prisma/migrations/<name>/migration.sql in order, for
 * databases that `prisma migrate deploy` cannot reach: in-memory PGlite, and a
 * fresh PostgreSQL test database. It does not fill `_prisma_migrations`, so never
 * point `migrate deploy` at a database prepared this way.
 * `runScript` must accept several statements at once (PGlite exec, pg query).
 * Returns the names of the migrations applied.
 */
export async function applyMigrationSql(
  runScript: (sql: string) => Promise<unknown>,
  migrationsDir: string = MIGRATIONS_DIR,
): Promise<string[]> {
  const entries = await readdir(migrationsDir, { withFileTypes: true });
  // Migration folder names start with a timestamp, so name order is apply order.
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  for (const name of names) {
    await runScript(await readFile(join(migrationsDir, name, 'migration.sql'), 'utf8'));
  }
  return names;
}
