/** What the one-process and the sharded Discord benches share: the options, the figures, the world of guilds and how latencies are read. */
import type { DiscordSim, GuildSpec, InteractionHandle } from './fakes/discord/index.ts';
import type { BenchDatabase } from './bench-discord-db.ts';

/** Who plays one benchmark game, and where. */
export interface Seating {
  readonly channelId: string;
  /** The first one hosts. */
  readonly humans: readonly string[];
  readonly personas: readonly string[];
}

export interface DiscordBenchOptions {
  readonly games: number;
  /** PGlite (default) or a schema of its own on a PostgreSQL server. */
  readonly db?: BenchDatabase;
  /** In this process (the soak): PGlite in a fresh directory instead of in memory, as `npm start` keeps it. */
  readonly pgliteOnDisk?: boolean;
  /** The server `db: 'postgres'` plays on. */
  readonly postgresUrl?: string;
  /** Replay the interactions against a client that only acknowledges (default true). */
  readonly floor?: boolean;
  /** discord.js's global REST cap (its default, 50, is what Discord allows most bots). */
  readonly globalRequestsPerSecond?: number;
  readonly humansPerGame?: number;
  readonly aiPerGame?: number;
  /** Pinned so runs are comparable. */
  readonly firstSeed?: number;
  /** Lobbies being set up at the same moment (hosts do not all type /mafia create in the same millisecond). */
  readonly openingAtOnce?: number;
  /** How long a simulated person waits for the bot's reply before giving up (the simulator's default: 5 s). */
  readonly replyTimeoutMs?: number;
}

/** The stages of an acknowledgement: the simulator's dispatch, the gateway to the bot's router, the bot's handling to the acknowledgement received. */
export type StageKey = 'dispatch' | 'gateway' | 'handler';

export interface StageFigure {
  minMs: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface StageFigures {
  /** Acknowledged interactions whose four moments are all known; the stages cover only these. */
  traced: number;
  all: Record<StageKey, StageFigure>;
  byKind: { kind: string; count: number; stages: Record<StageKey, StageFigure> }[];
}

export interface DiscordBenchFigures {
  db: BenchDatabase;
  games: number;
  completed: number;
  interactions: number;
  /** Interactions the bot did not acknowledge within Discord's 3 s. */
  unanswered: number;
  /** Games whose lobby could not be opened and started, with why. */
  notStarted: string[];
  ackP50Ms: number;
  ackP99Ms: number;
  ackMaxMs: number;
  /** The same interactions answered by a client that only acknowledges (NaN when not measured). */
  floorAckP50Ms: number;
  floorAckP99Ms: number;
  /** The same per kind of interaction (`/mafia create`, `lobby:join`, `night`, …). */
  ackByKind: { kind: string; count: number; p50Ms: number; p99Ms: number }[];
  /** Where the acknowledgements' time went (`bench-discord-stages.ts`). */
  stages: StageFigures;
  /** Heap and RSS growth per game while every game was running, after gc (when exposed). */
  heapPerGameBytes: number;
  rssPerGameBytes: number;
  gcExposed: boolean;
  wallMs: number;
  restCalls: number;
  /** The most frequent REST routes the bot called, most first. */
  restByRoute: { route: string; count: number }[];
  failedRestCalls: number;
  errorsLogged: string[];
}

export const STARTER_PERSONAS = [
  'Sherlock Holmes',
  'Hercule Poirot',
  'Miss Marple',
  'Oscar Wilde',
  'Cleopatra',
  'Marie Curie',
  'Napoleon Bonaparte',
];
const CHANNELS_PER_GUILD = 10;

/** `/mafia create`, or a component's custom id without the game id and the day (`lobby:join`, `vote`). */
export function kindOf(h: InteractionHandle): string {
  const d = h.interaction.data as { name?: string; options?: { name: string; type: number }[]; custom_id?: string };
  if (d.name) return `/${d.name} ${d.options?.[0]?.name ?? ''}`.trim();
  return (d.custom_id ?? '?')
    .split(':')
    .filter((part) => !/[0-9a-f]{8}-/.test(part) && !/^\d+$/.test(part))
    .join(':');
}

export function latencies(handles: readonly InteractionHandle[]): number[] {
  return handles
    .map((h) => h.ackLatencyMs)
    .filter((ms): ms is number => ms !== null)
    .sort((a, b) => a - b);
}

/** The p-th percentile (nearest rank) of sorted values; NaN when there are none. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** Guilds of ten game channels each, with the humans of those games as members. */
export function benchWorld(
  games: number,
  humansPerGame: number,
): { guilds: GuildSpec[]; seatings: Omit<Seating, 'channelId' | 'personas'>[] } {
  const guilds: GuildSpec[] = [];
  const seatings: Omit<Seating, 'channelId' | 'personas'>[] = [];
  for (let g = 0; g * CHANNELS_PER_GUILD < games; g++) {
    const channels: string[] = [];
    const members: string[] = [];
    for (let c = 0; c < CHANNELS_PER_GUILD && g * CHANNELS_PER_GUILD + c < games; c++) {
      const game = g * CHANNELS_PER_GUILD + c;
      channels.push(`game-${game}`);
      const humans = Array.from({ length: humansPerGame }, (_, h) => `g${game}-h${h}`);
      members.push(...humans);
      seatings.push({ humans });
    }
    guilds.push({ name: `Server ${g}`, channels, members });
  }
  return { guilds, seatings };
}

export function busiestRoutes(sim: DiscordSim): { route: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const call of sim.calls) counts.set(`${call.method} ${call.route}`, (counts.get(`${call.method} ${call.route}`) ?? 0) + 1);
  return [...counts]
    .map(([route, count]) => ({ route, count }))
    .sort((a, b) => b.count - a.count)
    .slice(0, 5);
}

export async function inParallel<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  const worker = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
  };
  await Promise.all(Array.from({ length: Math.max(1, width) }, worker));
}

/** What the handles say about acknowledgements: over all of them and by kind of interaction. */
export function ackFigures(
  handles: readonly InteractionHandle[],
): Pick<DiscordBenchFigures, 'interactions' | 'unanswered' | 'ackP50Ms' | 'ackP99Ms' | 'ackMaxMs' | 'ackByKind'> {
  const all = latencies(handles);
  const kinds = [...new Set(handles.map(kindOf))];
  return {
    interactions: handles.length,
    unanswered: handles.length - all.length,
    ackP50Ms: percentile(all, 50),
    ackP99Ms: percentile(all, 99),
    ackMaxMs: all.at(-1) ?? Number.NaN,
    ackByKind: kinds.map((kind) => {
      const of = latencies(handles.filter((h) => kindOf(h) === kind));
      return { kind, count: of.length, p50Ms: percentile(of, 50), p99Ms: percentile(of, 99) };
    }),
  };
}
