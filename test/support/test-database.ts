import { openAsBlob } from 'node:fs';
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
