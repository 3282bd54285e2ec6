/**
 * Runs once per `vitest run`, before any test file: provides the databases every test copies
 * instead of migrating its own (a fresh in-memory PGlite costs seconds of initdb and migrations;
 * a copy of a dump about one).
 */
import type { TestProject } from 'vitest/node';
import { cachedPgliteTemplates } from './pglite-template-cache.ts';
import { buildServerTemplate, dropServerCopies } from './server-template.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The server builds its template while this process builds PGlite's.
  const [pglite, server] = await Promise.all([cachedPgliteTemplates(), buildServerTemplate()]);
  project.provide('pgliteTemplates', pglite);
  project.provide('serverTemplate', server);
  return async () => {
    if (server !== null) await dropServerCopies(server);
  };
}
