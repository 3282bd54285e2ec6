/**
 * Many games at once on a bot of K shard processes, each started as an operator starts one
 * (`node --import tsx src/main.ts` with `SHARD_IDS=k SHARD_COUNT=K`), all on one PostgreSQL schema,
 * against the Discord simulator, whose guilds Discord routes to every shard in turn. The processes
 * run on real time (the bench cannot reach into their clocks), so the host sets the shortest phases
 * the rules allow; people act from what Discord shows them (`bench-discord-people.ts`), and a game
 * counts as completed when the database says it ended. Then the same interactions are replayed
 * against a client that only acknowledges, for this machine's floor.
 */
import type { ChildProcess } from 'node:child_process';
import { spawnBot } from './lib/bot-process.ts';
import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { startDiscordSim, type DiscordSim, type GuildSpec, type InteractionHandle, type OptionValue } from './fakes/discord/index.ts';
import { openBenchDatabase, type BenchDatabase } from './bench-discord-db.ts';
import { acknowledgementFloor } from './bench-discord-floor.ts';
import { RemoteTable } from './bench-discord-people.ts';
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
const READY_TIMEOUT_MS = 120_000;

interface ShardProcess {
  readonly shard: number;
  readonly child: ChildProcess;
  /** The last lines it printed. */
  tail(): string;
  readonly exited: Promise<number | null>;
}

function startShard(sim: DiscordSim, databaseUrl: string, shard: number, of: number): ShardProcess {
  const child = spawnBot(sim, {
    DATABASE_URL: databaseUrl,
    SHARD_IDS: String(shard),
    SHARD_COUNT: String(of),
    LLM_PROVIDER: 'offline',
    // The bench made the schema from the committed migration SQL (prisma migrate deploy needs its engine binary).
    MIGRATE_ON_START: 'false',
    LOG_LEVEL: 'info',
  });
  let lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString().split('\n').filter(Boolean));
    if (lines.length > 400) lines = lines.slice(-200);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { shard, child, tail: () => lines.slice(-40).join('\n'), exited };
}

const running = (p: ShardProcess) => p.child.exitCode === null && p.child.signalCode === null;

async function stopShard(p: ShardProcess): Promise<void> {
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

const totalRss = async (shards: readonly ShardProcess[]) =>
  (await Promise.all(shards.map((s) => rssOf(s.child.pid)))).reduce((a, b) => a + b, 0);

/** Waits for a condition, checked every `everyMs`; fails when a shard process dies or time runs out. */
async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  shards: readonly ShardProcess[],
  timeoutMs: number,
  everyMs = 250,
) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    const dead = shards.find((s) => !running(s));
    if (dead) throw new Error(`shard ${dead.shard} exited before ${what}:\n${dead.tail()}`);
    if (Date.now() > deadline) return false;
    await sleep(everyMs);
  }
  return true;
}

export interface ShardedBenchOptions extends DiscordBenchOptions {
  readonly shards: number;
  /** More /mafia create options on top of the shortest phases (a test's smaller game: `roles`, `night-one-kill`). */
  readonly createOptions?: Readonly<Record<string, OptionValue>>;
}

export async function benchShardedGames(options: ShardedBenchOptions): Promise<DiscordBenchFigures> {
  const db: BenchDatabase = options.db ?? 'postgres';
  if (db !== 'postgres') throw new Error('several shard processes need a PostgreSQL server: use --db postgres');
  const humansPerGame = options.humansPerGame ?? 2;
  const aiPerGame = options.aiPerGame ?? 5;
  const layout = benchWorld(options.games, humansPerGame);
  const guilds: GuildSpec[] = layout.guilds.map((g, i) => ({ ...g, onShard: { shard: i % options.shards, of: options.shards } }));
  const sim = await startDiscordSim({ guilds, waitTimeoutMs: 120_000 });
  const database = await openBenchDatabase('postgres', options.postgresUrl);
  const shards: ShardProcess[] = [];
  const handles: InteractionHandle[] = [];
  try {
    const url = database.url;
    if (url === null) throw new Error('the bench database has no URL for the shard processes');
    for (let k = 0; k < options.shards; k++) shards.push(startShard(sim, url, k, options.shards));
    const ready = await until(
      () => shards.every((s) => s.tail().includes('serving shard(s)')),
      'every shard serves',
      shards,
      READY_TIMEOUT_MS,
    );
    if (!ready)
      throw new Error(`not every shard was serving after ${READY_TIMEOUT_MS / 1000} s:\n${shards.map((s) => s.tail()).join('\n---\n')}`);
    const idle = await totalRss(shards);
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
          peakRss = Math.max(peakRss, await totalRss(shards));
        }
        await sleep(200);
      }
    })();
    await inParallel(tables, options.openingAtOnce ?? 10, (t) => t.open());
    const ids = tables.flatMap((t) => (t.failed === null && t.gameId !== null ? [t.gameId] : []));
    let completed = 0;
    await until(
      async () => {
        completed = await database.prisma.game.count({ where: { id: { in: ids }, status: 'ended' } });
        return completed === ids.length;
      },
      'every game ends',
      shards,
      PLAY_TIMEOUT_MS,
      2000,
    );
    people.done = true;
    await reacting;
    const wallMs = performance.now() - started;
    // Interactions still in flight get Discord's 3 s before they are counted.
    await Promise.all(handles.map((h) => h.ack({ timeoutMs: 3500 }).catch(() => undefined)));
    await Promise.all(shards.map(stopShard));

    const figures: DiscordBenchFigures = {
      db,
      games: tables.length,
      completed,
      ...ackFigures(handles),
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
      errorsLogged: [],
    };
    if (options.floor ?? true) {
      const floor = (await acknowledgementFloor(sim, handles, options.globalRequestsPerSecond)).sort((a, b) => a - b);
      figures.floorAckP50Ms = percentile(floor, 50);
      figures.floorAckP99Ms = percentile(floor, 99);
    }
    return figures;
  } finally {
    await Promise.all(shards.map(stopShard));
    await sim.close();
    await database.close();
  }
}
