/**
 * Runs once per `vitest run`, before any test file: builds the databases every test copies instead
 * of migrating its own (a fresh in-memory PGlite costs seconds of initdb and migrations; a copy of a
 * dump well under one).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildPgliteTemplates } from './pglite-templates.ts';
import { buildServerTemplate, dropServerCopies } from './server-template.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'dramatis-test-db-'));
  // The server builds its template while this process builds PGlite's.
  const [dumps, server] = await Promise.all([buildPgliteTemplates(), buildServerTemplate()]);
  const migrated = join(dir, 'migrated.tar');
  const withStarters = join(dir, 'with-starters.tar');
  await writeFile(migrated, dumps.migrated);
  await writeFile(withStarters, dumps.withStarters);
  project.provide('pgliteTemplates', { migrated, withStarters });
  project.provide('serverTemplate', server);
  return async () => {
    await rm(dir, { recursive: true, force: true });
    if (server !== null) await dropServerCopies(server);
  };
}
