/**
 * The soak's bot: one bot in this process (real discord.js, offline brain, PGlite or a PostgreSQL
 * schema, a manual clock) beside the Discord simulator, played by `BenchGame`s: every human plays
 * the phase, then the clock jumps to the next deadline, so phases end when the driver says. The
 * Discord bench itself runs the bot in processes of its own (`bench-discord-processes.ts`).
 */
import type { Client } from 'discord.js';
import { ManualTimers } from '../src/clock.ts';
import type { LlmConfig } from '../src/config.ts';
import { startBot, type Bot } from '../src/bot.ts';
import { createDiscordClient, loginClient } from '../src/discord/client.ts';
import { createGameStore } from '../src/db/game-store.ts';
import type { Database } from '../src/db/open-database.ts';
import { createLlmCallStore } from '../src/db/llm-call-store.ts';
import { createPersonaStore } from '../src/db/persona-store.ts';
import { createStatsStore } from '../src/db/stats-store.ts';
import { createRatingStore } from '../src/db/rating-store.ts';
import type { Logger } from '../src/log.ts';
import { loadStarterPack } from '../src/persona/starter-pack.ts';
import { startDiscordSim, type DiscordSim, type GuildSpec } from './fakes/discord/index.ts';
import type { BenchGame } from './bench-discord-humans.ts';
import { openBenchDatabase } from './bench-discord-db.ts';
import type { DiscordBenchOptions } from './bench-discord-world.ts';

const CLOCK_START = Date.UTC(2026, 0, 1);
/** A phase whose deadline passed must move on within this long, or the bench reports it stuck. */
const PHASE_CHANGE_TIMEOUT_MS = 120_000;

const OFFLINE: LlmConfig = {
  provider: 'offline',
  openai: { apiKey: undefined, baseURL: undefined, model: 'offline' },
  anthropic: { apiKey: undefined, baseURL: undefined, model: 'offline' },
  timeoutMs: 1000,
  maxToolRounds: 0,
  dailyTokenBudget: 0,
};

function collectingLog(errors: string[]): Logger {
  return { debug: () => undefined, info: () => undefined, warn: () => undefined, error: (m) => void errors.push(m) };
}

/** Heap and RSS after three full collections (when `--expose-gc` gave `gc`). */
export function memory(): { heap: number; rss: number } {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) for (let i = 0; i < 3; i++) gc();
  const m = process.memoryUsage();
  return { heap: m.heapUsed, rss: m.rss };
}

/** One bot on the simulator, as the bench plays it. */
export interface Running {
  sim: DiscordSim;
  db: Database;
  client: Client;
  bot: Bot;
  timers: ManualTimers;
  errors: string[];
}

/** The bench in this process; it may be handed its database. */
export interface InProcessBenchOptions extends DiscordBenchOptions {
  /** An open database to play on instead of one made for the run (a test's copy of its template); the bench closes it. */
  readonly database?: Database;
}

/** The simulator with these guilds, a database, the starter personas, a logged-in client and the bot on a manual clock. */
export async function boot(options: InProcessBenchOptions, guilds: GuildSpec[]): Promise<Running> {
  const errors: string[] = [];
  const log = collectingLog(errors);
  const sim = await startDiscordSim({ guilds, ...(options.replyTimeoutMs !== undefined && { waitTimeoutMs: options.replyTimeoutMs }) });
  const db =
    options.database ?? (await openBenchDatabase(options.db ?? 'pglite', options.postgresUrl, { onDisk: options.pgliteOnDisk ?? false }));
  const games = createGameStore(db.prisma);
  const personas = createPersonaStore(db.prisma);
  const pack = await loadStarterPack(personas);
  if (!pack.ok) throw new Error(pack.error.message);
  const timers = new ManualTimers(CLOCK_START);
  const client = await loginClient(
    createDiscordClient({ apiUrl: sim.restApi, globalRequestsPerSecond: options.globalRequestsPerSecond }),
    sim.token,
  );
  sim.onClose(() => client.destroy());
  let seed = options.firstSeed ?? 1;
  const bot = await startBot({
    client,
    log,
    games,
    personas,
    stats: createStatsStore(db.prisma),
    ratings: createRatingStore(db.prisma),
    llmCalls: createLlmCallStore(db.prisma),
    llm: OFFLINE,
    timers,
    driver: { speechGapMs: 0 },
    newSeed: () => seed++,
  });
  return { sim, db, client, bot, timers, errors };
}

/** Everything the bot and the AI seats owe right now is done and delivered. */
export async function settle(bot: Bot, games: readonly BenchGame[]): Promise<void> {
  for (let i = 0; i < 4; i++) {
    await bot.idle();
    const drivers = games.flatMap((g) => (g.liveGame?.driver ? [g.liveGame.driver] : []));
    await Promise.all(drivers.map((driver) => driver.idle()));
  }
  await bot.idle();
}

/** Plays every game to its end: all humans play their phase, then the clock jumps to the earliest deadline. */
export async function playAll(run: Running, games: readonly BenchGame[], phaseChangeTimeoutMs = PHASE_CHANGE_TIMEOUT_MS): Promise<void> {
  for (;;) {
    await settle(run.bot, games);
    const live = games.filter((g) => g.playing);
    if (live.length === 0) return;
    await Promise.all(live.map((g) => g.play()));
    await settle(run.bot, games);
    const waiting = games.filter((g) => g.playing);
    if (waiting.length === 0) return;
    const deadlines = waiting.map((g) => g.state.deadline).filter((d): d is number => d !== null);
    if (deadlines.length < waiting.length) {
      const stuck = waiting.filter((g) => g.state.deadline === null);
      throw new Error(
        `${stuck.length} game(s) are running with no deadline: ${stuck.map((g) => `${g.state.id} ${g.state.phase}`).join(', ')}`,
      );
    }
    const next = Math.min(...deadlines);
    const due = waiting.filter((g) => (g.state.deadline ?? Infinity) <= next).map((g) => ({ g, phase: g.state.phase, day: g.state.day }));
    // The reminders before the deadline go out while their phase is still on, as players would get them.
    run.timers.advanceTo(next - 1);
    await settle(run.bot, games);
    run.timers.advanceTo(next);
    // Deadlines go through each session's queue; wait for them to land.
    await run.sim.until(() => due.every(({ g, phase, day }) => g.state.phase !== phase || g.state.day !== day), {
      timeoutMs: phaseChangeTimeoutMs,
      description: `${due.length} game(s) to leave the phase whose deadline passed`,
    });
  }
}
