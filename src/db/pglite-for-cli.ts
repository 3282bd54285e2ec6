import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';

/**
 * A PGlite for the Prisma CLI process only. The CLI never disposes its driver
 * adapter and waits for the event loop to drain, but PGlite's Postgres timers
 * (stats flush every 10 s, re-armed forever) keep the loop alive, so
 * `migrate deploy` on an existing directory would never exit.
 * Nobody awaits those timers, so unref'ing them is safe; the instance is then
 * closed cleanly once the CLI has nothing left to do.
 */
export function openPgliteForCli(dataDir: string | null): PGlite {
  // The CLI may build the adapter more than once (even load the config twice);
  // two PGlite instances on one directory corrupt it, so share one per process.
  const key = dataDir === null ? 'memory' : resolve(dataDir);
  const existing = openInstances().get(key);
  if (existing !== undefined && !existing.closed) return existing;
  unrefPgliteTimers();
  if (dataDir !== null) mkdirSync(dataDir, { recursive: true });
  const db = dataDir === null ? new PGlite() : new PGlite(dataDir);
  openInstances().set(key, db);
  let closing = false;
  process.on('beforeExit', () => {
    if (closing || db.closed) return;
    closing = true;
    void db.close();
  });
  return db;
}

function openInstances(): Map<string, PGlite> {
  const holder = globalThis as { [INSTANCES]?: Map<string, PGlite> };
  holder[INSTANCES] ??= new Map();
  return holder[INSTANCES];
}
const INSTANCES = Symbol.for('dramatis.pgliteForCli');

let patched = false;

function unrefPgliteTimers(): void {
  if (patched) return;
  patched = true;
  const original = globalThis.setTimeout;
  const patchedSetTimeout = (...args: Parameters<typeof setTimeout>): ReturnType<typeof setTimeout> => {
    const timer = original(...args);
    // Emscripten's setitimer shim is the only caller we want to detach.
    if (new Error().stack?.includes('__setitimer_js') === true) timer.unref();
    return timer;
  };
  globalThis.setTimeout = Object.assign(patchedSetTimeout, original);
}
