import type { Client } from 'discord.js';
import type { AiDriverOptions } from './agents/driver/ai-driver.ts';
import { registerMafia } from './interactions/mafia/index.ts';
import { mafiaCommandData } from './interactions/mafia/index.ts';
import { personaCommandData, personaModels, registerPersona } from './interactions/persona/index.ts';
import { realTimers, type Timers } from './clock.ts';
import { DEFAULT_LOBBIES, type LlmConfig, type LobbyConfig } from './config.ts';
import type { GameStore } from './db/game-store.ts';
import type { PersonaStore } from './db/persona-store.ts';
import type { StatsStore } from './db/stats-store.ts';
import type { RatingStore } from './db/rating-store.ts';
import { GameRepository } from './db/game-repository.ts';
import { GuildRatings } from './report/guild-ratings.ts';
import type { LlmCallStore } from './db/llm-call-store.ts';
import { budgetLimits, TokenBudget } from './agents/budget.ts';
import { createEditorService, createPersonaTester, type EditorLlm, type EditorService } from './agents/editor/index.ts';
import type { PersonaModels } from './interactions/persona/models.ts';
import type { EditorStore } from './db/editor-store.ts';
import { EditorChats } from './discord/editor-chats.ts';
import { budgetSink } from './agents/seating.ts';
import type { Logger } from './log.ts';
import { ModelWarnings } from './llm/model-warnings.ts';
import { modelSetting } from './llm/providers.ts';
import { syncCommands, type CommandData, type Registration } from './discord/register.ts';
import { InteractionRouter } from './discord/router.ts';
import { LiveGames } from './discord/live-games.ts';
import { ShardRelay } from './discord/shard-relay.ts';
import { ownsGuild, type ShardSet } from './discord/shards.ts';
import type { ShardOutbox } from './db/shard-inbox.ts';

/** Every slash command the bot registers. */
const COMMANDS: readonly CommandData[] = [mafiaCommandData, personaCommandData];

export interface BotDeps {
  /** Logged in and ready. */
  readonly client: Client<true>;
  readonly log: Logger;
  readonly games: GameStore;
  readonly personas: PersonaStore;
  readonly stats: StatsStore;
  /** The servers' ratings of personas and of people who opted in. */
  readonly ratings: RatingStore;
  /** Every model call's cost; also the ledger of the daily budgets (per server, DMs, per person). */
  readonly llmCalls: LlmCallStore;
  readonly llm: LlmConfig;
  /** How long an idle lobby lasts and how many one person may host; default the configuration's defaults. */
  readonly lobbies?: LobbyConfig;
  /** Commands registered in this server only (instant), else globally. */
  readonly devGuildId?: string | undefined;
  readonly timers?: Timers;
  readonly driver?: Partial<Pick<AiDriverOptions, 'speechGapMs' | 'speechTurnMs'>>;
  /** Seeds for new games (tests pin them; random otherwise). */
  readonly newSeed?: () => number;
  /** The persona editor agent (`/persona edit`); absent: the command says it is not available. */
  readonly editor?: BotEditorDeps;
  /** One of several shard processes (issue 14); absent: this process is the whole bot. */
  readonly sharding?: BotShardingDeps;
  /** Gone models, told to the log once per process (shared with the start-up check); default a new one. */
  readonly modelWarnings?: ModelWarnings;
  /** Log the moment each interaction reaches the router (INTERACTION_TRACE); default off. */
  readonly traceInteractions?: boolean;
}

interface BotShardingDeps {
  /** The shards this process serves. */
  readonly shards: ShardSet;
  /** Where DMs of other shards' games go (the process holding shard 0 gets every DM). */
  readonly outbox: ShardOutbox;
}

export interface BotEditorDeps {
  readonly store: EditorStore;
  /** null: no model for the editor (it says so; `noModelReason` why). */
  readonly llm: EditorLlm | null;
  readonly noModelReason?: string | undefined;
  readonly maxRounds?: number;
  readonly historyTurns?: number;
  /** At most one edit of a streamed reply per this many ms (default 1,000). */
  readonly streamIntervalMs?: number;
}

export interface Bot {
  readonly liveGames: LiveGames;
  readonly router: InteractionRouter;
  readonly registration: Registration;
  /** Hands over what other shards forwarded to this one (sharding; a no-op relay otherwise). */
  readonly relay: ShardRelay | null;
  /** Handlers in flight and queued Discord output done (tests, shutdown). */
  idle(): Promise<void>;
  /** Stops listening, timers and AI work; games stay stored for the next start. */
  stop(): Promise<void>;
}

/**
 * Wires a logged-in client to the games: routes attached first, then commands registered (only if
 * changed), interrupted editor replies closed and running games resumed. Call it as soon as the
 * login resolves: nothing here waits before the router is attached, so no interaction sent as
 * READY went out is dropped; one about a game still loading is acknowledged and answered once it is.
 */
export async function startBot(deps: BotDeps): Promise<Bot> {
  // One budget for everything that calls a model: game seats, /persona commands, the editor.
  const budget = new TokenBudget(deps.llmCalls, budgetLimits(deps.llm));
  const onRecordError = (error: unknown) => deps.log.warn(`an LLM call's cost was not recorded: ${String(error)}`);
  const cost = budgetSink(budget, onRecordError);
  const timers = deps.timers ?? realTimers;
  const modelWarnings = deps.modelWarnings ?? new ModelWarnings(deps.log);
  const repo = new GameRepository(deps.games);
  const ratings = new GuildRatings({
    store: deps.ratings,
    load: async (gameId) => {
      const loaded = await repo.load(gameId);
      return loaded.ok ? loaded.value : null;
    },
    log: deps.log,
  });
  const sharding = deps.sharding;
  const ownsPlace = sharding ? (guildId: string | null) => ownsGuild(sharding.shards, guildId) : null;
  const liveGames = new LiveGames({
    client: deps.client,
    store: deps.games,
    timers,
    log: deps.log,
    lobbies: deps.lobbies ?? DEFAULT_LOBBIES,
    ...(deps.newSeed ? { newSeed: deps.newSeed } : {}),
    gameEnded: (guildId) => ratings.catchUp(guildId),
    ...(ownsPlace && { ownsGuild: ownsPlace }),
    ai: {
      llm: deps.llm,
      personas: deps.personas,
      minds: deps.games,
      budget,
      cost: cost.sink,
      clock: timers,
      driver: {
        speechGapMs: deps.driver?.speechGapMs ?? 4000,
        ...(deps.driver?.speechTurnMs !== undefined && { speechTurnMs: deps.driver.speechTurnMs }),
        // The provider's own words stay in the log; the table reads a neutral notice.
        onFallback: (player, kind, fallback) => {
          if (fallback.model)
            modelWarnings.unavailable(fallback.model, modelSetting(fallback.model.provider, fallback.model.source), fallback.detail);
          else deps.log.warn(`AI seat ${player.name} (${player.id}) fell back on ${kind}: ${fallback.category}: ${fallback.detail}`);
        },
        onError: (error) => deps.log.error(`AI driver: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
      },
    },
  });
  const router = new InteractionRouter(deps.log, deps.traceInteractions ?? false);
  registerMafia(router, { liveGames, personas: deps.personas, stats: deps.stats, ratings, log: deps.log });
  const models = personaModels(deps.llm);
  const editor = deps.editor ? editorService(deps.personas, deps.editor, models, budget, { onRecordError, log: deps.log }) : null;
  const chats =
    editor && deps.editor
      ? new EditorChats({
          editor,
          replies: deps.editor.store,
          log: deps.log,
          dmsTakenByGame: (userId) => liveGames.mafiaChatByDmOf(userId) !== null,
          gamesLoaded: () => liveGames.loaded(),
          ...(ownsPlace && { ownsPlace }),
          ...(deps.editor.streamIntervalMs !== undefined && { intervalMs: deps.editor.streamIntervalMs }),
        })
      : null;
  registerPersona(router, { personas: deps.personas, models, budget, log: deps.log, editor, chats, lobbies: liveGames });
  const relay = sharding
    ? new ShardRelay({
        client: deps.client,
        shards: sharding.shards,
        games: deps.games,
        liveHere: (gameId) => liveGames.liveGame(gameId) !== undefined,
        acknowledge: (i) => router.acknowledge(i),
        outbox: sharding.outbox,
        log: deps.log,
      })
    : null;
  // Before anything that waits: Discord fails an interaction not answered within 3 s, and one that
  // comes while no listener is attached is never answered at all.
  router.attach(deps.client, { games: liveGames, relay });
  const [registration, resumed] = await Promise.all([
    syncCommands(deps.client, COMMANDS, deps.devGuildId),
    liveGames.resumeRunning(),
    // The editor reads no message before the replies a crash left open are closed.
    chats?.closeInterrupted(deps.client),
  ]);
  deps.log.info(registration.changed ? `slash commands registered (${registration.reason})` : 'slash commands already up to date');
  if (resumed > 0) deps.log.info(`resumed ${resumed} running game(s)`);
  // Games that ended while no bot was there to rate them (or before ratings existed), oldest first.
  void ratings.catchUp().then((n) => {
    if (n > 0) deps.log.info(`rated ${n} finished game(s)`);
  });
  return {
    liveGames,
    router,
    registration,
    relay,
    async idle() {
      await router.idle();
      await chats?.idle();
      await liveGames.idle();
      await ratings.idle();
      await cost.flush();
    },
    async stop() {
      router.stopAsking();
      await router.idle();
      await chats?.idle();
      router.detach();
      await liveGames.closeAll();
      await ratings.idle();
    },
  };
}

function editorService(
  personas: PersonaStore,
  deps: BotEditorDeps,
  models: PersonaModels,
  budget: TokenBudget,
  { onRecordError, log }: { readonly onRecordError: (error: unknown) => void; readonly log: Logger },
): EditorService {
  return createEditorService({
    personas,
    editor: deps.store,
    // run_test plays the persona on the games' model (offline when there is none), on the same budget.
    tester: createPersonaTester(models.current(), {
      budget,
      onRecordError,
      onCallError: (detail) => log.warn(`an editor's persona test call failed: ${detail}`),
    }),
    llm: deps.llm,
    noModelReason: deps.noModelReason,
    ...(deps.maxRounds !== undefined && { maxRounds: deps.maxRounds }),
    ...(deps.historyTurns !== undefined && { historyTurns: deps.historyTurns }),
    budget,
    onRecordError,
  });
}
