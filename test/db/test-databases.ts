import { describe, inject } from 'vitest';
import { openDatabase, type Database } from '../../src/db/open-database.ts';
import { copyServerTemplate } from '../support/server-template.ts';
import { openTestDatabase } from '../support/test-database.ts';

/** A database the store contract runs against. */
export interface TestBackend {
  name: string;
  open(): Promise<Database>;
  /** Why this backend's suite does not run here, shown in the test summary. */
  skipped?: string;
}

const NO_SERVER = 'no PostgreSQL server: set TEST_DATABASE_URL to run these (docs/testing.md)';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL?.trim() || undefined;
const RUNNING_IN_CI = process.env.CI === 'true';

/**
 * In-memory PGlite always; a PostgreSQL server when TEST_DATABASE_URL is set, else its suite is
 * skipped with the reason. CI must prove the server path, so there a missing URL fails it.
 */
export function testBackends(name = 'public'): TestBackend[] {
  const backends: TestBackend[] = [{ name: 'in-memory PGlite', open: () => openTestDatabase('migrated') }];
  const url = TEST_DATABASE_URL;
  if (url === undefined && RUNNING_IN_CI) {
    backends.push({
      name: 'PostgreSQL server',
      open: () => Promise.reject(new Error('CI=true but TEST_DATABASE_URL is not set: the PostgreSQL suite cannot run')),
    });
  } else if (url === undefined) {
    backends.push({ name: 'PostgreSQL server', skipped: NO_SERVER, open: () => Promise.reject(new Error(NO_SERVER)) });
  } else {
    backends.push({
      name: 'PostgreSQL server',
      open: async () => mustOpen({ kind: 'postgres', url: await serverCopy(name) }),
    });
  }
  return backends;
}

/** A suite on one backend; a backend that cannot run here shows its tests as skipped, with the reason in the title. */
export function describeOn(backend: TestBackend, title: string, suite: () => void): void {
  if (backend.skipped === undefined) describe(title, suite);
  else describe.skip(`${title} (skipped: ${backend.skipped})`, suite);
}

/**
 * Empties the game, cost and rating tables between tests; cheaper than a fresh database each time.
 * Through the models, not raw SQL: a raw statement would run on the connection's search path, not
 * on the test file's own schema.
 */
export async function truncateAll(db: Database): Promise<void> {
  const p = db.prisma;
  await p.$transaction([
    p.ratedGame.deleteMany(),
    p.gameDiscordRef.deleteMany(),
    p.gameEvent.deleteMany(),
    p.gamePlayer.deleteMany(),
    p.game.deleteMany(),
    p.llmCall.deleteMany(),
    p.rating.deleteMany(),
    p.ratingOptIn.deleteMany(),
  ]);
}

/**
 * A fresh database on the TEST_DATABASE_URL server, copied from the run's migrated template, for
 * processes to share: its URL (with `?schema=`). Null when no server is configured (see
 * `testBackends` for CI). `name` is unique per test file, so files running in parallel never
 * drop each other's databases.
 */
export async function freshServerDatabase(name: string): Promise<string | null> {
  if (TEST_DATABASE_URL === undefined) return null;
  return serverCopy(name);
}

async function serverCopy(name: string): Promise<string> {
  const template = inject('serverTemplate');
  if (template === null) throw new Error('TEST_DATABASE_URL is set but the global setup built no template database');
  return copyServerTemplate(template, name);
}

async function mustOpen(database: Parameters<typeof openDatabase>[0]['database']): Promise<Database> {
  const opened = await openDatabase({ database });
  if (!opened.ok) throw new Error(opened.error);
  return opened.value;
}
