import { openAsBlob } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';
import { openMemoryCopy, type Database } from '../../src/db/open-database.ts';
import type { PgliteTemplatePaths } from './pglite-templates.ts';

/**
 * A fresh in-memory database copied from the run's template (test/support/global-setup.ts):
 * `migrated` is empty, `withStarters` holds the starter pack as a booted bot's database does.
 */
export async function openTestDatabase(template: keyof PgliteTemplatePaths): Promise<Database> {
  const opened = await openMemoryCopy(await openAsBlob(inject('pgliteTemplates')[template]));
  if (!opened.ok) throw new Error(opened.error);
  return opened.value;
}

/**
 * A PGlite data directory holding a copy of the run's template, for a bot process started with
 * MIGRATE_ON_START=false: its tests are about what happens after the migrations, which
 * test/db/pglite-directory.test.ts runs through the Prisma CLI.
 */
export async function pgliteDirectoryFromTemplate(dataDir: string, template: keyof PgliteTemplatePaths): Promise<void> {
  const db = new PGlite(dataDir, { loadDataDir: await openAsBlob(inject('pgliteTemplates')[template]) });
  await db.waitReady;
  await db.close();
}
