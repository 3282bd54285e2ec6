/**
 * Many games at once through the Discord simulator: one bot (real discord.js, offline brain,
 * in-memory PGlite or a PostgreSQL server, a manual clock) and simulated humans in their own guilds
 * and channels. Every game is opened by slash command, filled and started by buttons, and played to
 * its end; the clock jumps to the next deadline once everyone has played the phase, so phases end
 * when the driver says. Then the same interactions are replayed against a client that only
 * acknowledges, for this machine's floor. Nothing here asserts: the caller prints the figures.
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
import { startDiscordSim, type DiscordSim, type GuildSpec, type InteractionHandle } from './fakes/discord/index.ts';
import { BenchGame } from './bench-discord-humans.ts';
import { openBenchDatabase, type BenchDatabase } from './bench-discord-db.ts';
import { acknowledgementFloor } from './bench-discord-floor.ts';
import { benchShardedGames } from './bench-discord-sharded.ts';
import {
  benchWorld,
  busiestRoutes,
  inParallel,
  ackFigures,
  percentile,
  STARTER_PERSONAS,
  type DiscordBenchFigures,
  type DiscordBenchOptions,
} from './bench-discord-world.ts';

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

export async function benchDiscordGames(options: InProcessBenchOptions): Promise<DiscordBenchFigures> {
  const humansPerGame = options.humansPerGame ?? 2;
  const aiPerGame = options.aiPerGame ?? 5;
  if (aiPerGame > STARTER_PERSONAS.length) throw new Error(`at most ${STARTER_PERSONAS.length} AI seats per game (the starter personas)`);
  const layout = benchWorld(options.games, humansPerGame);
  const run = await boot(options, layout.guilds);
  const handles: InteractionHandle[] = [];
  let botStopped = false;
  try {
    const before = memory();
    const started = performance.now();
    const games = layout.seatings.map((s, i) => {
      const channelId = run.sim.channel(`game-${i}`).id;
      return new BenchGame(run.sim, run.bot, { ...s, channelId, personas: STARTER_PERSONAS.slice(0, aiPerGame) }, handles);
    });
    await inParallel(games, options.openingAtOnce ?? 10, (g) => g.open());
    await run.sim.until(() => games.every((g) => g.failed !== null || g.running()), {
      timeoutMs: PHASE_CHANGE_TIMEOUT_MS,
      description: 'every game to start',
    });
    await settle(run.bot, games);
    const during = memory();
    await playAll(run, games);
    const wallMs = performance.now() - started;

    const figures: DiscordBenchFigures = {
      db: options.db ?? 'pglite',
      games: games.length,
      completed: games.filter((g) => g.ended).length,
      ...ackFigures(handles),
      notStarted: games.filter((g) => g.failed !== null).map((g) => `${g.seating.channelId}: ${g.failed}`),
      floorAckP50Ms: Number.NaN,
      floorAckP99Ms: Number.NaN,
      heapPerGameBytes: (during.heap - before.heap) / games.length,
      rssPerGameBytes: (during.rss - before.rss) / games.length,
      gcExposed: typeof (globalThis as { gc?: unknown }).gc === 'function',
      wallMs,
      restCalls: run.sim.calls.length,
      restByRoute: busiestRoutes(run.sim),
      failedRestCalls: run.sim.failedRequests().length,
      errorsLogged: run.errors,
    };
    botStopped = true;
    await run.bot.stop();
    await run.client.destroy();
    if (options.floor ?? true) {
      const floor = (await acknowledgementFloor(run.sim, handles, options.globalRequestsPerSecond)).sort((a, b) => a - b);
      figures.floorAckP50Ms = percentile(floor, 50);
      figures.floorAckP99Ms = percentile(floor, 99);
    }
    return figures;
  } finally {
    if (!botStopped) await run.bot.stop();
    await run.sim.close();
    await run.db.close();
  }
}

const GOAL_P99_MS = 200;
const GOAL_MAX_MS = 1000;
const GOAL_REST_PER_GAME = 70;

/** The figures as lines, with their ratio to the goals and to this machine's floor. */
export function describeDiscordBench(f: DiscordBenchFigures, label: string): string[] {
  const ratio = GOAL_P99_MS / f.ackP99Ms;
  const perGame = f.restCalls / f.games;
  const overFloor = f.ackP99Ms / f.floorAckP99Ms;
  const floor = Number.isNaN(f.floorAckP99Ms)
    ? 'floor not measured'
    : `${overFloor.toFixed(1)}× this machine's floor now (a client that only acknowledges the same interactions: p50 ${f.floorAckP50Ms} ms, p99 ${f.floorAckP99Ms} ms)`;
  const lines = [
    `${label}:`,
    `  games completed: ${f.completed} of ${f.games}${f.notStarted.length > 0 ? ` (${f.notStarted.length} never started: ${f.notStarted[0]})` : ''}  [target ${f.games}: ${f.completed === f.games ? '✓' : '✗'}]`,
    `  wall time: ${(f.wallMs / 1000).toFixed(1)} s for ${f.interactions} interactions and ${f.restCalls} REST calls`,
    `  REST calls per game: ${perGame.toFixed(1)}  [target ≤ ${GOAL_REST_PER_GAME}: ${(GOAL_REST_PER_GAME / perGame).toFixed(2)}× ${perGame <= GOAL_REST_PER_GAME ? '✓' : '✗'}]`,
    `  interaction acknowledgement: p50 ${f.ackP50Ms} ms, p99 ${f.ackP99Ms} ms, max ${f.ackMaxMs} ms  [goal p99 < ${GOAL_P99_MS} ms: ${ratio.toFixed(2)}× ${f.ackP99Ms < GOAL_P99_MS ? '✓' : '✗'}; max < ${GOAL_MAX_MS} ms: ${f.ackMaxMs < GOAL_MAX_MS ? '✓' : '✗'}]`,
    `  not acknowledged within 3 s: ${f.unanswered}  [target 0: ${f.unanswered === 0 ? '✓' : '✗'}]`,
    `  p99 is ${floor}`,
    `  by kind: ${f.ackByKind.map((k) => `${k.kind} ×${k.count} p50 ${k.p50Ms} / p99 ${k.p99Ms} ms`).join('; ')}`,
    Number.isNaN(f.heapPerGameBytes)
      ? `  memory per running game: RSS of the shard processes ${(f.rssPerGameBytes / 1024).toFixed(0)} KiB (their peak while games ran, over their idle size after start-up)`
      : `  memory per running game${f.gcExposed ? ' (after gc)' : ' (no --expose-gc: before gc, rough)'}: heap ${(f.heapPerGameBytes / 1024).toFixed(0)} KiB, RSS ${(f.rssPerGameBytes / 1024).toFixed(0)} KiB (the simulator's copy of every message and REST call included)`,
    `  busiest REST routes: ${f.restByRoute.map((r) => `${r.route} ×${r.count}`).join(', ')}`,
  ];
  if (f.failedRestCalls > 0 || f.errorsLogged.length > 0) {
    lines.push(
      `  refused REST calls: ${f.failedRestCalls}; bot errors logged: ${f.errorsLogged.length}${f.errorsLogged[0] ? ` (first: ${f.errorsLogged[0].split('\n')[0]})` : ''}`,
    );
  }
  return lines;
}

export interface DiscordSectionOptions {
  readonly games: number;
  readonly db: BenchDatabase;
  readonly postgresUrl?: string | undefined;
  /** discord.js's global REST cap; unset: its default of 50 requests/s, what production sees. */
  readonly restCap?: number | undefined;
  /** Shard processes (default 1: the bot in this process, on a manual clock). */
  readonly shards?: number;
}

/** The section of `npm run bench` (and all of `npm run bench:discord`); returns the figures for `--json`, under `discord.*`. */
export async function discordSection(
  out: (line: string) => void,
  options: DiscordSectionOptions,
): Promise<Record<string, number | string>> {
  const where = options.db === 'pglite' ? "in-memory PGlite (embedded, in the bot's thread)" : 'a PostgreSQL server';
  const cap =
    options.restCap === undefined
      ? "discord.js's default global cap of 50 REST requests/s (what production sees: Discord limits a bot about the same)"
      : `discord.js's global REST cap raised to ${options.restCap} requests/s (NOT what production sees)`;
  const shards = options.shards ?? 1;
  const bench: DiscordBenchOptions = {
    games: options.games,
    db: options.db,
    ...(options.postgresUrl !== undefined && { postgresUrl: options.postgresUrl }),
    ...(options.restCap !== undefined && { globalRequestsPerSecond: options.restCap }),
  };
  if (shards > 1) {
    out(
      `${options.games} concurrent games on a bot of ${shards} shard processes (\`node --import tsx src/main.ts\` with SHARD_IDS=k SHARD_COUNT=${shards}, each with ${cap}) on ${where}, through the Discord simulator, which routes the guilds to the shards in turn (2 humans + 5 AI personas each, offline brain; lobbies opened ten at a time while the open games play on real time, phases of 10 s; people act on what Discord shows them, and a game counts when the database says it ended):`,
    );
  } else {
    out(
      `${options.games} concurrent games on one bot through the Discord simulator (2 humans + 5 AI personas each, offline brain, ${where}, lobbies opened ten at a time, then every game played at once), with ${cap}:`,
    );
  }
  const f = shards > 1 ? await benchShardedGames({ ...bench, shards }) : await benchDiscordGames(bench);
  for (const line of describeDiscordBench(f, shards > 1 ? `${shards} shard processes, ${options.db}` : `one process, ${options.db}`))
    out(line);
  return {
    db: f.db,
    games: f.games,
    gamesCompleted: f.completed,
    ackP50Ms: f.ackP50Ms,
    ackP99Ms: f.ackP99Ms,
    ackMaxMs: f.ackMaxMs,
    unacknowledged: f.unanswered,
    restCallsPerGame: f.restCalls / f.games,
    ackP99FloorMs: f.floorAckP99Ms,
    ackP99OverFloor: f.ackP99Ms / f.floorAckP99Ms,
    heapPerGameBytes: f.heapPerGameBytes,
    rssPerGameBytes: f.rssPerGameBytes,
    shards,
    wallMs: f.wallMs,
  };
}
