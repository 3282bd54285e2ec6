/** Shard processes of the bot as an operator starts them (`npm start`), against the simulator and one PostgreSQL database. */
import type { ChildProcess } from 'node:child_process';
import { spawnBot } from '../../scripts/lib/bot-process.ts';
import { describe } from 'vitest';
import type { DiscordSim } from '../../scripts/fakes/discord/index.ts';
import { openDatabase, type Database } from '../../src/db/open-database.ts';
import { freshServerDatabase } from '../db/test-databases.ts';

export interface BotProcess {
  readonly child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  readonly exited: Promise<number | null>;
}

const SERVER_MISSING = 'no PostgreSQL server: set TEST_DATABASE_URL to run the sharded tests (docs/testing.md)';
const HAS_SERVER = (process.env.TEST_DATABASE_URL?.trim() ?? '') !== '';

/** Sharded suites need a server; without one they are skipped with the reason, except in CI, where they must run. */
export function describeSharded(title: string, suite: () => void): void {
  if (HAS_SERVER || process.env.CI === 'true') describe(title, suite);
  else describe.skip(`${title} (skipped: ${SERVER_MISSING})`, suite);
}

/** A fresh database for this test's processes, and a client of its own on it to read what they stored. */
export async function sharedDatabase(name: string): Promise<{ url: string; db: Database }> {
  const url = await freshServerDatabase(name);
  if (url === null) throw new Error(`CI=true but ${SERVER_MISSING}`);
  const opened = await openDatabase({ database: { kind: 'postgres', url } });
  if (!opened.ok) throw new Error(opened.error);
  return { url, db: opened.value };
}

/** `node --import tsx src/main.ts` (what `npm start` runs) with this environment on top of the simulator's. */
export function startBot(sim: DiscordSim, env: Record<string, string>): BotProcess {
  const child = spawnBot(sim, {
    LLM_PROVIDER: 'offline',
    // The test copies a database migrated from the migration SQL (prisma migrate deploy needs its engine binary).
    MIGRATE_ON_START: 'false',
    LOG_LEVEL: 'info',
    ...env,
  });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => text, exited };
}

/** Stops a process the way a test ends: SIGKILL if still running, then waits for it. */
export async function kill(bot: BotProcess): Promise<void> {
  if (bot.child.exitCode === null && bot.child.signalCode === null) bot.child.kill('SIGKILL');
  await bot.exited;
}

/** Waits for a condition (checked again every 50 ms), naming it; fails early when a watched process exits. */
export async function until(check: () => boolean | Promise<boolean>, what: string, watched: readonly BotProcess[] = []): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (!(await check())) {
    const dead = watched.find((bot) => bot.child.exitCode !== null || bot.child.signalCode !== null);
    if (dead) throw new Error(`a bot process exited before ${what}:\n${dead.output()}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}\n${watched.map((b) => b.output()).join('\n---\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
