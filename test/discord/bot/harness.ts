/** A bot on the simulator: real discord.js client, in-memory PGlite copied from the run's template (starter personas in it), a manual clock. */
import type { Client } from 'discord.js';
import { onTestFinished } from 'vitest';
import type { LlmConfig, LobbyConfig, PersonaCaps } from '../../../src/config.ts';
import { ManualTimers } from '../../../src/clock.ts';
import { startBot, type Bot } from '../../../src/bot.ts';
import { createDiscordClient, loginClient } from '../../../src/discord/client.ts';
import { createGameStore, type GameStore } from '../../../src/db/game-store.ts';
import type { Database } from '../../../src/db/open-database.ts';
import { createLlmCallStore } from '../../../src/db/llm-call-store.ts';
import { createPersonaStore, type PersonaStore } from '../../../src/db/persona-store.ts';
import { createEditorStore } from '../../../src/db/editor-store.ts';
import type { EditorLlm } from '../../../src/agents/editor/index.ts';
import type { ShardOutbox } from '../../../src/db/shard-inbox.ts';
import type { ShardSet } from '../../../src/discord/shards.ts';
import { createStatsStore } from '../../../src/db/stats-store.ts';
import { createRatingStore } from '../../../src/db/rating-store.ts';
import type { Logger } from '../../../src/log.ts';
import { startDiscordSim, type DiscordSim, type MemberSpec } from '../../../scripts/fakes/discord/index.ts';
import { BOT_DEFAULT, EVERYONE_DEFAULT } from '../../../scripts/fakes/discord/permissions.ts';
import { T0 } from '../../support/test-game.ts';
import { openTestDatabase } from '../../support/test-database.ts';

export const OFFLINE: LlmConfig = {
  provider: 'offline',
  openai: { apiKey: undefined, baseURL: undefined, model: 'm' },
  anthropic: { apiKey: undefined, baseURL: undefined, model: 'm' },
  timeoutMs: 1000,
  maxToolRounds: 0,
  dailyTokenBudget: 0,
};

/** A log that keeps what the bot said at error and warn level, for the world's tests to read. */
function quietLog(): Logger & { errors: string[]; warnings: string[] } {
  const errors: string[] = [];
  const warnings: string[] = [];
  return {
    debug: () => undefined,
    info: () => undefined,
    errors,
    warnings,
    error: (m: string) => void errors.push(m),
    warn: (m: string) => void warnings.push(m),
  };
}

/** Sharding: the world's second bot, serving shard 0 (every DM reaches it), and its own server. */
interface DmShard {
  readonly bot: Bot;
  readonly client: Client<true>;
  /** The server on shard 0 ('Home', channel 'home'): its games are this bot's. */
  readonly guild: 'Home';
}

export interface World {
  sim: DiscordSim;
  db: Database;
  games: GameStore;
  personas: PersonaStore;
  timers: ManualTimers;
  bot: Bot;
  client: Client<true>;
  /** What the bot logged at error and warn level, over restarts and crashes too. */
  log: { readonly errors: string[]; readonly warnings: string[] };
  /** With `sharded`: the bot of shard 0 (the world's `bot` serves shard 1); null otherwise. */
  readonly dmShard: DmShard | null;
  /**
   * A new client and bot over the same simulator and database, as after a restart; `whileDown` runs
   * between the stop and the start (the clock moved on while no bot ran).
   */
  restart(whileDown?: () => unknown): Promise<Bot>;
  /**
   * As after a crash: the client is gone at once, with nothing stopped or finished (what the old
   * bot still had running can no longer reach Discord), then a new client and bot start.
   */
  crash(): Promise<Bot>;
  close(): Promise<void>;
}

export interface WorldOptions {
  /**
   * Every new game gets this seed, so a game can be replayed exactly; or the seed this gives when
   * the game is created (tests sharing a world that each need their own deal).
   */
  readonly seed?: number | (() => number);
  /** The bot's model settings; offline unless a test points it at an LLM fake. */
  readonly llm?: LlmConfig;
  /** How long an idle lobby lasts and how many one person may host; default the configuration's defaults. */
  readonly lobbies?: LobbyConfig;
  /** The persona editor's model (`/persona edit`), e.g. on the Anthropic wire fake; default: no model. */
  readonly editorLlm?: EditorLlm | null;
  /** Permissions the bot lacks in the server (taken from its role and from @everyone). */
  readonly botLacks?: bigint;
  /** The game store the bot gets, made from the real one (a test may hold or fail its writes). */
  readonly games?: (store: GameStore) => GameStore;
  /** How many personas one person and one server may keep; default: the config's defaults. */
  readonly personaCaps?: PersonaCaps;
  /** The model fake `llm` points at: closed with the world, after it (no call of its bot is left against a closed fake). */
  readonly model?: { close(): Promise<unknown> };
  /**
   * Sharding in one process, on shard 1 and shard 0 of 2: the world's server is on shard 1 and so is
   * its bot; `dmShard` is a second bot on the same database serving shard 0, where Discord sends
   * every DM, with a server of its own ('Home'). Shard 0 hands what belongs to shard 1 to `outbox`.
   */
  readonly sharded?: { readonly outbox: ShardOutbox };
}

/** The people of the world's server, as the simulator takes them (a test may need one back after they left). */
export const MEMBERS: readonly MemberSpec[] = [
  { name: 'alice', owner: true },
  { name: 'bob' },
  { name: 'carol' },
  { name: 'mod', manageServer: true },
];

const SHARD_1: ShardSet = { ids: [1], count: 2 };
const SHARD_0: ShardSet = { ids: [0], count: 2 };

export async function startWorld(options: WorldOptions = {}): Promise<World> {
  const sharded = options.sharded;
  const sim = await startDiscordSim({
    guilds: [
      {
        name: 'Club',
        channels: ['game', 'other'],
        members: [...MEMBERS],
        ...(options.botLacks !== undefined && {
          botPermissions: BOT_DEFAULT & ~options.botLacks,
          everyonePermissions: EVERYONE_DEFAULT & ~options.botLacks,
        }),
        ...(sharded && { onShard: { shard: 1, of: 2 } }),
      },
      ...(sharded ? [{ name: 'Home', channels: ['home'], members: [...MEMBERS], onShard: { shard: 0, of: 2 } }] : []),
    ],
  });
  // The starter pack is in the template, as main.ts loads it at every boot.
  const db = await openTestDatabase('withStarters');
  const games = createGameStore(db.prisma);
  const personas = createPersonaStore(db.prisma, options.personaCaps);
  const timers = new ManualTimers(T0);
  const log = quietLog();
  const boot = async (shards = sharded ? SHARD_1 : null) => {
    const client = await loginClient(createDiscordClient({ apiUrl: sim.restApi, ...(shards && { shards }) }), sim.token);
    sim.onClose(() => client.destroy());
    const seed = options.seed;
    const bot = await startBot({
      client,
      log,
      games: options.games ? options.games(games) : games,
      personas,
      stats: createStatsStore(db.prisma),
      ratings: createRatingStore(db.prisma),
      llmCalls: createLlmCallStore(db.prisma),
      llm: options.llm ?? OFFLINE,
      ...(options.lobbies && { lobbies: options.lobbies }),
      timers,
      driver: { speechGapMs: 0 },
      ...(seed !== undefined && { newSeed: typeof seed === 'number' ? () => seed : seed }),
      // A short stream interval: the one-edit-per-second pacing has its own test.
      editor: { store: createEditorStore(db.prisma), llm: options.editorLlm ?? null, streamIntervalMs: 20 },
      ...(sharded && shards && { sharding: { shards, outbox: sharded.outbox } }),
    });
    return { client, bot };
  };
  const first = await boot();
  const dmShard: DmShard | null = sharded ? { ...(await boot(SHARD_0)), guild: 'Home' } : null;
  const world: World = {
    sim,
    db,
    games,
    personas,
    timers,
    bot: first.bot,
    client: first.client,
    log,
    dmShard,
    async restart(whileDown) {
      await world.bot.stop();
      await world.client.destroy();
      await whileDown?.();
      const next = await boot();
      world.bot = next.bot;
      world.client = next.client;
      return next.bot;
    },
    async crash() {
      await world.client.destroy();
      const next = await boot();
      world.bot = next.bot;
      world.client = next.client;
      return next.bot;
    },
    async close() {
      await world.bot.stop();
      await dmShard?.bot.stop();
      await sim.close();
      await db.close();
      await options.model?.close();
    },
  };
  return world;
}

/** A world of the running test's own (on a model of its own, say): closed, its model with it, when the test is over, pass or fail. */
export async function startTestWorld(options: WorldOptions): Promise<World> {
  const world = await startWorld(options);
  onTestFinished(() => world.close());
  return world;
}
