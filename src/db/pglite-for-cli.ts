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
 * The same goes for the schema engine's 10 s timeout on its advisory lock, which
 * it never clears: every run idled 10 s after its work. Only this process opens
 * the directory, so the lock is never contended and the timeout never decides.
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
const SCHEMA_ENGINE_LOCK_TIMEOUT_MS = 10_000;
const SCHEMA_ENGINE = /[\\/]prisma[\\/]build[\\/]index\.js[\s\S]*wasm:\/\//;

function unrefPgliteTimers(): void {
  if (patched) return;
  patched = true;
  const original = globalThis.setTimeout;
  const patchedSetTimeout = (...args: Parameters<typeof setTimeout>): ReturnType<typeof setTimeout> => {
    const timer = original(...args);
    const stack = new Error().stack ?? '';
    // Emscripten's setitimer shim, and the schema engine's (WebAssembly in the CLI's bundle) lock timeout.
    if (stack.includes('__setitimer_js') || (args[1] === SCHEMA_ENGINE_LOCK_TIMEOUT_MS && SCHEMA_ENGINE.test(stack))) timer.unref();
    return timer;
  };
  globalThis.setTimeout = Object.assign(patchedSetTimeout, original);
}
