/**
 * The soak: thousands of games, one after another, on ONE bot through the Discord simulator (real
 * discord.js, the offline brain, PGlite in a fresh directory, a manual clock), played by the Discord
 * bench's own people. The same channels host game after game, as a server's would; each wave plays one game in
 * every channel at once. After a wave the simulator forgets what it recorded (its own memory, not the
 * bot's), and the process is sampled after a full GC: heap, RSS, open file descriptors, database
 * connections, and the sizes of discord.js's caches. Nothing here asserts: the caller prints the figures.
 */
import { readdirSync } from 'node:fs';
import type { Client } from 'discord.js';
import type { Database } from '../src/db/open-database.ts';
import { BenchGame } from './bench-discord-humans.ts';
import { boot, memory, playAll, settle, type Running } from './bench-discord-in-process.ts';
import type { BenchDatabase } from './bench-discord-db.ts';
import { ackFigures, benchWorld, inParallel, STARTER_PERSONAS } from './bench-discord-world.ts';
import type { InteractionHandle } from './fakes/discord/index.ts';
import { ratio } from './lib/bench-ratio.ts';

/**
 * How long a wave's lobbies may take to start, and a phase to move on once its deadline passed. The
 * soak shares a loaded machine: past it, a game is counted as not started (and ended by its host),
 * or the soak stops with the phase it was stuck in.
 */
const STUCK_MS = 600_000;
/**
 * How long a simulated person waits for a reply. The soak measures memory, not latency, and shares a
 * machine: a reply slower than the simulator's default 5 s must not make a game fail to start.
 */
const REPLY_TIMEOUT_MS = 60_000;

export interface SoakOptions {
  /** Games in all. */
  readonly games: number;
  /** Games played at once (one per channel, ten channels a server); each wave plays this many. */
  readonly atOnce?: number;
  /** The baseline is sampled once this many games have been played (default 100). */
  readonly baselineAfter?: number;
  readonly db?: BenchDatabase;
  readonly postgresUrl?: string | undefined;
  /** An open database to play on instead of a fresh directory made for the run (a test's copy of its template); the soak closes it. */
  readonly database?: Database;
  /** discord.js's global REST cap; the soak measures memory, not latency, so it is raised by default. */
  readonly restCap?: number;
  /** Told after each wave, with the sample taken then. */
  readonly onWave?: (sample: SoakSample) => void;
}

/** The process after a wave and a full GC. */
export interface SoakSample {
  /** Games played so far. */
  readonly games: number;
  readonly wallMs: number;
  readonly heapBytes: number;
  readonly rssBytes: number;
  /** Open file descriptors (`/proc/self/fd`; NaN where there is none). The simulator's sockets are in this process too. */
  readonly fds: number;
  /** Connections to the database server (`pg_stat_activity` of this database; PGlite has its own one). */
  readonly dbConnections: number;
  /** Sizes of discord.js's caches and the bot's live state. */
  readonly sizes: Readonly<Record<string, number>>;
}

export interface SoakFigures {
  readonly planned: number;
  /** Games that ended. */
  readonly games: number;
  readonly notStarted: number;
  /** Why the first games that did not start failed (a few). */
  readonly failures: readonly string[];
  readonly interactions: number;
  /** Interactions not acknowledged within Discord's 3 s. */
  readonly unacknowledged: number;
  readonly wallMs: number;
  readonly baseline: SoakSample;
  readonly end: SoakSample;
  readonly samples: readonly SoakSample[];
  /** Heap after GC at the end over the baseline's, minus 1. */
  readonly heapGrowth: number;
  readonly rssGrowth: number;
  readonly gcExposed: boolean;
  readonly errorsLogged: readonly string[];
}

function openFds(): number {
  try {
    return readdirSync('/proc/self/fd').length;
  } catch {
    return Number.NaN;
  }
}

async function dbConnections(db: Database, kind: BenchDatabase): Promise<number> {
  const where = kind === 'postgres' ? ' WHERE datname = current_database()' : '';
  const rows = await db.prisma.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM pg_stat_activity${where}`);
  return rows[0]?.n ?? Number.NaN;
}

/** How much discord.js holds: every cache that could grow with games played. */
function cacheSizes(client: Client): Record<string, number> {
  let threads = 0;
  let messages = 0;
  for (const channel of client.channels.cache.values()) {
    if (channel.isThread()) threads++;
    if (channel.isTextBased()) messages += channel.messages.cache.size;
  }
  let members = 0;
  let guildChannels = 0;
  for (const guild of client.guilds.cache.values()) {
    members += guild.members.cache.size;
    guildChannels += guild.channels.cache.size;
  }
  return { channels: client.channels.cache.size, threads, guildChannels, messages, users: client.users.cache.size, members };
}

async function sample(run: Running, kind: BenchDatabase, games: number, started: number): Promise<SoakSample> {
  const { heap, rss } = memory();
  return {
    games,
    wallMs: performance.now() - started,
    heapBytes: heap,
    rssBytes: rss,
    fds: openFds(),
    dbConnections: await dbConnections(run.db, kind),
    sizes: {
      ...cacheSizes(run.client),
      ...run.bot.liveGames.held(),
      timers: run.timers.scheduled.length,
    },
  };
}

/** Plays `games` games in waves of `atOnce` on one bot; samples the process after each wave. */
export async function benchSoak(options: SoakOptions): Promise<SoakFigures> {
  const atOnce = Math.min(options.atOnce ?? 100, options.games);
  const kind = options.db ?? 'pglite';
  const baselineAfter = Math.min(options.baselineAfter ?? 100, options.games);
  const layout = benchWorld(atOnce, 2);
  const run = await boot(
    {
      games: atOnce,
      db: kind,
      ...(options.postgresUrl !== undefined && { postgresUrl: options.postgresUrl }),
      globalRequestsPerSecond: options.restCap ?? 10_000,
      replyTimeoutMs: REPLY_TIMEOUT_MS,
      pgliteOnDisk: true,
      ...(options.database && { database: options.database }),
    },
    layout.guilds,
  );
  const channels = layout.seatings.map((_, i) => run.sim.channel(`game-${i}`).id);
  const samples: SoakSample[] = [];
  let baseline: SoakSample | null = null;
  let played = 0;
  let ended = 0;
  let notStarted = 0;
  const failures: string[] = [];
  let interactions = 0;
  let unacknowledged = 0;
  const started = performance.now();
  try {
    while (played < options.games) {
      // Played in a function of its own: the wave's games and handles are garbage before the sample.
      const wave = await playWave(run, layout.seatings.slice(0, options.games - played), channels);
      played += wave.games;
      ended += wave.ended;
      notStarted += wave.failures.length;
      failures.push(...wave.failures.slice(0, Math.max(0, 5 - failures.length)));
      interactions += wave.interactions;
      unacknowledged += wave.unacknowledged;
      // The simulator's records are the bench's memory, not the bot's.
      run.sim.forgetHistory();
      const now = await sample(run, kind, played, started);
      samples.push(now);
      if (baseline === null && played >= baselineAfter) baseline = now;
      options.onWave?.(now);
    }
  } finally {
    await run.bot.stop();
    await run.sim.close();
    await run.db.close();
  }
  const end = samples.at(-1);
  if (!baseline || !end) throw new Error('the soak played no games');
  return {
    planned: options.games,
    games: ended,
    notStarted,
    failures,
    interactions,
    unacknowledged,
    wallMs: performance.now() - started,
    baseline,
    end,
    samples,
    heapGrowth: end.heapBytes / baseline.heapBytes - 1,
    rssGrowth: end.rssBytes / baseline.rssBytes - 1,
    gcExposed: typeof (globalThis as { gc?: unknown }).gc === 'function',
    errorsLogged: run.errors,
  };
}

interface WaveTally {
  readonly games: number;
  readonly ended: number;
  /** Why the games that did not start failed. */
  readonly failures: readonly string[];
  readonly interactions: number;
  readonly unacknowledged: number;
}

/** One game in each channel, opened, played to its end and counted; a game left open is ended by its host. */
async function playWave(run: Running, seatings: readonly { humans: readonly string[] }[], channels: readonly string[]): Promise<WaveTally> {
  const handles: InteractionHandle[] = [];
  const wave = seatings.map(
    (s, i) => new BenchGame(run.sim, run.bot, { ...s, channelId: channels[i] ?? '', personas: STARTER_PERSONAS.slice(0, 5) }, handles),
  );
  await inParallel(wave, 10, (g) => g.open());
  await run.sim
    .until(() => wave.every((g) => g.failed !== null || g.running()), { timeoutMs: STUCK_MS })
    .catch(() => {
      for (const g of wave) if (g.failed === null && !g.running()) g.failed = `not started after ${STUCK_MS / 1000} s: ${stage(g)}`;
    });
  await playAll(run, wave, STUCK_MS);
  await settle(run.bot, wave);
  await endLeftovers(run, wave);
  const acks = ackFigures(handles);
  return {
    games: wave.length,
    ended: wave.filter((g) => g.ended).length,
    failures: wave.flatMap((g) => (g.failed === null ? [] : [`${g.seating.channelId}: ${g.failed}`])),
    interactions: acks.interactions,
    unacknowledged: acks.unanswered,
  };
}

/** How far a game that did not start got. */
function stage(g: BenchGame): string {
  const t = g.liveGame;
  if (!t) return 'no lobby';
  return `phase ${t.state.phase}, AI seats ${t.driver ? 'driven' : 'not driven'}, Mafia thread ${t.mafiaThreadId ?? 'none'}`;
}

/** A game of the wave that did not start or end (a lobby left open) is ended by its host, so its channel can host the next. */
async function endLeftovers(run: Running, wave: readonly BenchGame[]): Promise<void> {
  const left = wave.filter((g) => run.bot.liveGames.liveInChannel(g.seating.channelId) !== undefined);
  for (const g of left) {
    const host = g.seating.humans[0];
    if (host !== undefined) await run.sim.user(host).slash({ id: g.seating.channelId }, 'mafia', { subcommand: 'end' }).reply();
  }
  await run.sim.until(() => left.every((g) => run.bot.liveGames.liveInChannel(g.seating.channelId) === undefined), {
    timeoutMs: STUCK_MS,
    description: `${left.length} game(s) left open to be ended`,
  });
  await settle(run.bot, wave);
}

/** No upward trend: the largest value of the later half of the samples is no larger than of the earlier half. */
function staysFlat(values: readonly number[]): boolean {
  const half = Math.ceil(values.length / 2);
  const late = values.slice(half);
  return late.length === 0 || Math.max(...late) <= Math.max(...values.slice(0, half));
}

/** The heap after GC at the end may exceed the baseline's by at most this share. */
const HEAP_GROWTH_TARGET = 0.1;

const MIB = 2 ** 20;
const mib = (bytes: number) => `${(bytes / MIB).toFixed(1)} MiB`;
const percent = (share: number) => `${(share * 100).toFixed(1)} %`;

/** Sizes as `name n`, the non-zero ones. */
function sizes(of: Readonly<Record<string, number>>): string {
  const shown = Object.entries(of).filter(([, n]) => n > 0);
  return shown.length === 0 ? 'all empty' : shown.map(([name, n]) => `${name} ${n}`).join(', ');
}

/** The figures as lines, with the heap's growth against its target and whether descriptors and connections stayed flat. */
export function describeSoak(f: SoakFigures): string[] {
  const fromBaseline = f.samples.filter((s) => s.games >= f.baseline.games);
  const flat = (pick: (s: SoakSample) => number) => {
    const values = fromBaseline.map(pick);
    return `${pick(f.baseline)} after ${f.baseline.games} games, ${pick(f.end)} at the end, ${Math.min(...values)}–${Math.max(...values)} between  [flat: ${staysFlat(values) ? '✓' : '✗'}]`;
  };
  const lines = [
    `  games completed: ${f.games} of ${f.planned}${f.notStarted > 0 ? ` (${f.notStarted} never started: ${f.failures[0] ?? ''})` : ''}  [target ${f.planned}: ${f.games === f.planned ? '✓' : '✗'}]`,
    `  wall time: ${(f.wallMs / 1000).toFixed(0)} s, ${(f.wallMs / f.planned).toFixed(0)} ms a game; interactions ${f.interactions}, not acknowledged within 3 s: ${f.unacknowledged}`,
    `  heap after GC${f.gcExposed ? '' : ' (no --expose-gc: before GC, rough)'}: ${mib(f.baseline.heapBytes)} after ${f.baseline.games} games, ${mib(f.end.heapBytes)} at the end: growth ${percent(f.heapGrowth)}  [target ≤ ${percent(HEAP_GROWTH_TARGET)}: ${ratio(Math.max(f.heapGrowth, 0), HEAP_GROWTH_TARGET, false)}]`,
    `  resident memory: ${mib(f.baseline.rssBytes)} after ${f.baseline.games} games, ${mib(f.end.rssBytes)} at the end: growth ${percent(f.rssGrowth)}`,
    `  open file descriptors: ${flat((s) => s.fds)}`,
    `  database connections: ${flat((s) => s.dbConnections)}`,
    `  held after ${f.baseline.games} games: ${sizes(f.baseline.sizes)}`,
    `  held at the end: ${sizes(f.end.sizes)}`,
  ];
  if (f.errorsLogged.length > 0)
    lines.push(`  bot errors logged: ${f.errorsLogged.length} (first: ${f.errorsLogged[0]?.split('\n')[0] ?? ''})`);
  return lines;
}

export interface SoakSectionOptions {
  readonly games: number;
  readonly atOnce: number;
  readonly db: BenchDatabase;
  readonly postgresUrl?: string | undefined;
}

/** The section of `npm run bench`; returns the figures for `--json`, under `soak.*`. */
export async function soakSection(out: (line: string) => void, options: SoakSectionOptions): Promise<Record<string, unknown>> {
  const where = options.db === 'pglite' ? 'PGlite in a fresh directory, as npm start keeps it' : 'a PostgreSQL server';
  out(
    `Soak: ${options.games} games one after another on ONE bot through the Discord simulator (${Math.min(options.atOnce, options.games)} at a time, one per channel, the same channels game after game; 2 humans + 5 AI personas each, offline brain, ${where}, a manual clock; discord.js's REST cap raised: memory is measured here, not latency):`,
  );
  const f = await benchSoak({
    games: options.games,
    atOnce: options.atOnce,
    db: options.db,
    postgresUrl: options.postgresUrl,
    onWave: (s) =>
      out(`    after ${s.games} games (${(s.wallMs / 1000).toFixed(0)} s): heap ${mib(s.heapBytes)}, RSS ${mib(s.rssBytes)}, fds ${s.fds}`),
  });
  for (const line of describeSoak(f)) out(line);
  return {
    games: f.games,
    planned: f.planned,
    heapGrowth: f.heapGrowth,
    rssGrowth: f.rssGrowth,
    baselineGames: f.baseline.games,
    heapBaselineBytes: f.baseline.heapBytes,
    heapEndBytes: f.end.heapBytes,
    rssBaselineBytes: f.baseline.rssBytes,
    rssEndBytes: f.end.rssBytes,
    fds: { baseline: f.baseline.fds, end: f.end.fds, max: Math.max(...f.samples.map((s) => s.fds)) },
    dbConnections: {
      baseline: f.baseline.dbConnections,
      end: f.end.dbConnections,
      max: Math.max(...f.samples.map((s) => s.dbConnections)),
    },
    held: { baseline: f.baseline.sizes, end: f.end.sizes },
    unacknowledged: f.unacknowledged,
    wallMs: f.wallMs,
  };
}
