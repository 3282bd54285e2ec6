/**
 * Many games at once on a bot in processes of its own, each started as an operator starts one
 * (`node --import tsx src/main.ts` with `SHARD_IDS=k SHARD_COUNT=K`; K = 1: the whole bot in one
 * process) against the Discord simulator in this process, whose guilds Discord routes to every
 * shard in turn. So the simulator's own work (serialising, recording every REST call and message)
 * is not measured as the bot's. One process plays on a PGlite directory it migrates itself (as
 * `npm start` does) or on a PostgreSQL schema; several share a PostgreSQL schema. The processes run
 * on real time (the bench cannot reach into their clocks), so the host sets the shortest phases the
 * rules allow; people act from what Discord shows them (`bench-discord-people.ts`). The bots trace
 * when each interaction reaches them (INTERACTION_TRACE), for the stages of each acknowledgement. A
 * game counts as completed when the database says it ended. Then the same interactions are replayed
 * against a client that only acknowledges, for this machine's floor.
 */
import type { ChildProcess } from 'node:child_process';
import { spawnBot } from './lib/bot-process.ts';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { startDiscordSim, type DiscordSim, type GuildSpec, type InteractionHandle, type OptionValue } from './fakes/discord/index.ts';
import { openBotProcessDatabase, type BenchDatabase } from './bench-discord-db.ts';
import { acknowledgementFloor } from './bench-discord-floor.ts';
import { RemoteTable } from './bench-discord-people.ts';
import { stageFigures, TracedArrivals } from './bench-discord-stages.ts';
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

/** The shortest phases /mafia create allows (seconds): games end in minutes of real time. */
const SHORT_PHASES = { 'night-seconds': 10, 'day-seconds': 10, 'vote-seconds': 10 } as const;
/** How long every game may take once all are open (real time: a game of short phases lasts a few minutes). */
const PLAY_TIMEOUT_MS = 30 * 60_000;
/** Start-up, a PGlite directory's migration included. */
const READY_TIMEOUT_MS = 120_000;

interface BotProcess {
  readonly shard: number;
  readonly child: ChildProcess;
  /** Whether it said it serves (commands registered; with other shards, its inbox open too). */
  ready(): boolean;
  /** The last lines it printed. */
  tail(): string;
  readonly exited: Promise<number | null>;
}

interface Heard {
  /** Where the trace lines go. */
  readonly arrivals: TracedArrivals;
  /** Where the lines logged at error level go. */
  readonly errors: string[];
}

function startBotProcess(sim: DiscordSim, env: Readonly<Record<string, string>>, shard: number, of: number, heard: Heard): BotProcess {
  const child = spawnBot(sim, {
    ...env,
    SHARD_IDS: String(shard),
    SHARD_COUNT: String(of),
    LLM_PROVIDER: 'offline',
    LOG_LEVEL: 'info',
    INTERACTION_TRACE: 'true',
  });
  // A shard among others serves once its inbox is open; the whole bot once its commands are registered.
  const serving = of > 1 ? /serving shard\(s\)/ : /slash commands (registered|already up to date)/;
  let served = false;
  let lines: string[] = [];
  const keep = (line: string) => {
    served ||= serving.test(line);
    if (line.startsWith('[error]')) heard.errors.push(line);
    lines.push(line);
    if (lines.length > 400) lines = lines.slice(-200);
  };
  heard.arrivals.follow(child.stdout, keep);
  heard.arrivals.follow(child.stderr, keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { shard, child, ready: () => served, tail: () => lines.slice(-40).join('\n'), exited };
}

const running = (p: BotProcess) => p.child.exitCode === null && p.child.signalCode === null;

async function stopBotProcess(p: BotProcess): Promise<void> {
  if (!running(p)) return;
  p.child.kill('SIGTERM');
  const stopped = await Promise.race([p.exited.then(() => true), sleep(15_000).then(() => false)]);
  if (!stopped) {
    p.child.kill('SIGKILL');
    await p.exited;
  }
}

/** Resident memory of a process (Linux), in bytes; 0 when it is gone. */
async function rssOf(pid: number | undefined): Promise<number> {
  if (pid === undefined) return 0;
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kib = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
  return kib ? Number(kib) * 1024 : 0;
}

const totalRss = async (bots: readonly BotProcess[]) => (await Promise.all(bots.map((s) => rssOf(s.child.pid)))).reduce((a, b) => a + b, 0);

/** Waits for a condition, checked every `everyMs`; fails when a bot process dies or time runs out. */
async function until(check: () => boolean | Promise<boolean>, what: string, bots: readonly BotProcess[], timeoutMs: number, everyMs = 250) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    const dead = bots.find((s) => !running(s));
    if (dead) throw new Error(`shard ${dead.shard} exited before ${what}:\n${dead.tail()}`);
    if (Date.now() > deadline) return false;
    await sleep(everyMs);
  }
  return true;
}

export interface ProcessBenchOptions extends DiscordBenchOptions {
  /** Bot processes, one shard each (1: the whole bot in one process). More than one needs PostgreSQL. */
  readonly shards: number;
  /** More /mafia create options on top of the shortest phases (a test's smaller game: `roles`, `night-one-kill`). */
  readonly createOptions?: Readonly<Record<string, OptionValue>>;
  /** Makes the PGlite directory, migrated, before the bot starts (a test's copy of its template): the bot then does not migrate it. */
  readonly fillPglite?: (dataDir: string) => Promise<void>;
}

export async function benchBotProcesses(options: ProcessBenchOptions): Promise<DiscordBenchFigures> {
  const db: BenchDatabase = options.db ?? 'pglite';
  if (options.shards > 1 && db !== 'postgres') throw new Error('several shard processes need a PostgreSQL server: use --db postgres');
  const humansPerGame = options.humansPerGame ?? 2;
  const aiPerGame = options.aiPerGame ?? 5;
  const layout = benchWorld(options.games, humansPerGame);
  const guilds: GuildSpec[] = layout.guilds.map((g, i) => ({ ...g, onShard: { shard: i % options.shards, of: options.shards } }));
  const sim = await startDiscordSim({ guilds, waitTimeoutMs: 120_000 });
  const database = await openBotProcessDatabase(db, options.postgresUrl, options.fillPglite);
  const heard: Heard = { arrivals: new TracedArrivals(), errors: [] };
  const bots: BotProcess[] = [];
  const handles: InteractionHandle[] = [];
  try {
    for (let k = 0; k < options.shards; k++) bots.push(startBotProcess(sim, database.env, k, options.shards, heard));
    const ready = await until(() => bots.every((s) => s.ready()), 'it serves', bots, READY_TIMEOUT_MS);
    if (!ready)
      throw new Error(`not every bot process served after ${READY_TIMEOUT_MS / 1000} s:\n${bots.map((s) => s.tail()).join('\n---\n')}`);
    const idle = await totalRss(bots);
    const started = performance.now();
    const tables = layout.seatings.map(
      (s, i) =>
        new RemoteTable(
          sim,
          { ...s, channelId: sim.channel(`game-${i}`).id, personas: STARTER_PERSONAS.slice(0, aiPerGame) },
          { ...SHORT_PHASES, ...options.createOptions },
          handles,
        ),
    );
    // People act while lobbies are still being opened elsewhere, as on a real evening.
    const people = { done: false };
    let peakRss = idle;
    const reacting = (async () => {
      let sampled = 0;
      while (!people.done) {
        for (const t of tables) t.react();
        if (Date.now() - sampled > 2000) {
          sampled = Date.now();
          peakRss = Math.max(peakRss, await totalRss(bots));
        }
        await sleep(200);
      }
    })();
    await inParallel(tables, options.openingAtOnce ?? 10, (t) => t.open());
    const playing = tables.filter((t) => t.failed === null && t.gameId !== null);
    const ids = playing.flatMap((t) => (t.gameId === null ? [] : [t.gameId]));
    // Where only the bot may open the database, what the channels show tells when to stop; the database then counts.
    const endedNow = database.readableWhileRunning ? () => database.ended(ids) : () => playing.filter((t) => t.ended).length;
    await until(async () => (await endedNow()) === ids.length, 'every game ends', bots, PLAY_TIMEOUT_MS, 2000);
    people.done = true;
    await reacting;
    const wallMs = performance.now() - started;
    // Interactions still in flight get Discord's 3 s before they are counted.
    await Promise.all(handles.map((h) => h.ack({ timeoutMs: 3500 }).catch(() => undefined)));
    await Promise.all(bots.map(stopBotProcess));

    const figures: DiscordBenchFigures = {
      db,
      games: tables.length,
      completed: await database.ended(ids),
      ...ackFigures(handles),
      stages: stageFigures(handles, heard.arrivals),
      notStarted: tables.filter((t) => t.failed !== null).map((t) => `${t.seating.channelId}: ${t.failed}`),
      floorAckP50Ms: Number.NaN,
      floorAckP99Ms: Number.NaN,
      heapPerGameBytes: Number.NaN,
      rssPerGameBytes: (peakRss - idle) / tables.length,
      gcExposed: false,
      wallMs,
      restCalls: sim.calls.length,
      restByRoute: busiestRoutes(sim),
      failedRestCalls: sim.failedRequests().length,
      errorsLogged: heard.errors,
    };
    if (options.floor ?? true) {
      const floor = (await acknowledgementFloor(sim, handles, options.globalRequestsPerSecond)).sort((a, b) => a - b);
      figures.floorAckP50Ms = percentile(floor, 50);
      figures.floorAckP99Ms = percentile(floor, 99);
    }
    return figures;
  } finally {
    await Promise.all(bots.map(stopBotProcess));
    await sim.close();
    await database.close();
  }
}
