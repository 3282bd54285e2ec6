import 'dotenv/config';
import { fileURLToPath } from 'node:url';
import { loadConfig, type Config, type ShardingConfig } from './config.ts';
import { deployMigrations } from './db/deploy-migrations.ts';
import type { Database } from './db/open-database.ts';
import { openShardInbox, shardOutbox, type ShardInbox, type ShardOutbox } from './db/shard-inbox.ts';
import { withStartupLock } from './db/startup-lock.ts';
import { runShardingManager } from './discord/sharding-manager.ts';
import { ALL_IN_ONE, type ShardSet } from './discord/shards.ts';
import { err, ok, type Result } from './result.ts';
import { createGameStore, type GameStore } from './db/game-store.ts';
import { createLlmCallStore, type LlmCallStore } from './db/llm-call-store.ts';
import { createEditorStore, type EditorStore } from './db/editor-store.ts';
import { editorLlmFromConfig } from './agents/editor/index.ts';
import type { BotEditorDeps } from './bot.ts';
import { createPersonaStore, type PersonaStore } from './db/persona-store.ts';
import { createStatsStore, type StatsStore } from './db/stats-store.ts';
import { createRatingStore, type RatingStore } from './db/rating-store.ts';
import { prepareDatabase } from './db/prepare-database.ts';
import { createLogger, type Logger } from './log.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadStarterPack } from './persona/starter-pack.ts';
import { startBot } from './bot.ts';
import { createDiscordClient, loginClient } from './discord/client.ts';
import { MISSING_TOKEN_MESSAGE } from './discord/token-help.ts';
import { checkConfiguredModels } from './llm/model-check.ts';
import { ModelWarnings } from './llm/model-warnings.ts';

/** Everything the bot needs, built once at boot. */
interface Services {
  config: Config;
  log: Logger;
  games: GameStore;
  personas: PersonaStore;
  stats: StatsStore;
  ratings: RatingStore;
  llmCalls: LlmCallStore;
  editorStore: EditorStore;
  /** Several shard processes share the database (issue 14); null: this process is the whole bot. */
  sharding: { shards: ShardSet; outbox: ShardOutbox; url: string } | null;
  /** Check the configured models at start: one process of a sharded bot does (the one with shard 0). */
  checkModels: boolean;
  /** Settles if the database is gone for good (`Database.lost`): the process then stops, to be restarted. */
  databaseLost: Promise<string>;
}

async function main(): Promise<number> {
  const loaded = loadConfig(process.env);
  if (!loaded.ok) {
    console.error(loaded.error);
    return 1;
  }
  const config = loaded.value;
  const sharding = config.sharding;
  const log = createLogger(config.logLevel, processName(sharding));
  // Before the database: without a token there is nothing to serve, and the fix is in the message.
  if (!config.discord.token) {
    console.error(MISSING_TOKEN_MESSAGE);
    return 1;
  }
  if (sharding.role === 'manager') return manage(config, sharding, config.discord.token, log);
  const shards: ShardSet = sharding.role === 'shards' ? { ids: sharding.ids, count: sharding.count } : ALL_IN_ONE;

  log.info(`preparing the ${config.database.kind} database`);
  let booted: Result<{ db: Database; personas: PersonaStore }, string>;
  try {
    // Processes started together take turns: migrating and the starter pack write shared rows.
    booted = await withStartupLock(config.database, () => boot(config, log));
  } catch (error) {
    log.error(`cannot reach the database: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  if (!booted.ok) {
    log.error(booted.error);
    return 1;
  }
  const { db, personas } = booted.value;
  try {
    // Other processes serve the other shards: this one hands them their DMs and takes its own.
    const shared = shards.ids.length < shards.count && config.database.kind === 'postgres' ? config.database.url : null;
    return await run({
      config,
      log,
      games: createGameStore(db.prisma, { waitForDisk: config.gameWritesWaitForDisk }),
      personas,
      stats: createStatsStore(db.prisma),
      ratings: createRatingStore(db.prisma),
      llmCalls: createLlmCallStore(db.prisma),
      editorStore: createEditorStore(db.prisma),
      sharding: shared === null ? null : { shards, outbox: shardOutbox(db.prisma), url: shared },
      checkModels: shards.ids.includes(0),
      databaseLost: db.lost,
    });
  } finally {
    await db.close();
  }
}

/** The database opened and migrated (unless told not to), and the starter personas in it. */
async function boot(config: Config, log: Logger): Promise<Result<{ db: Database; personas: PersonaStore }, string>> {
  const prepared = await prepareDatabase(config.database, { migrate: config.migrateOnStart });
  if (!prepared.ok) return prepared;
  const db = prepared.value;
  const personas = createPersonaStore(db.prisma, config.personaCaps);
  const starters = await loadStarterPack(personas);
  if (!starters.ok) {
    await db.close();
    return err(`starter pack: ${starters.error.message}`);
  }
  log.info(
    `starter pack: ${starters.value.created.length} created, ${starters.value.updated.length} updated, ${starters.value.unchanged.length} unchanged`,
  );
  return ok({ db, personas });
}

/** SHARDS > 1 or auto: the schema migrated once here, then one process per shard. */
async function manage(config: Config, sharding: Extract<ShardingConfig, { role: 'manager' }>, token: string, log: Logger): Promise<number> {
  const target = config.database;
  if (config.migrateOnStart && target.kind !== 'memory') {
    log.info(`migrating the ${target.kind} database once for every shard`);
    const migrated = await withStartupLock(target, () => deployMigrations(target)).catch((error: unknown) =>
      err(`cannot reach the database: ${error instanceof Error ? error.message : String(error)}`),
    );
    if (!migrated.ok) {
      log.error(migrated.error);
      return 1;
    }
  }
  return runShardingManager({
    token,
    apiUrl: config.discord.apiUrl,
    count: sharding.count,
    ids: sharding.ids,
    shardFile: fileURLToPath(import.meta.url),
    log,
    stopRequested: () => stopSignal(false),
  });
}

/** Logs in, serves until SIGINT/SIGTERM, then stops cleanly (running games stay stored and resume next start). */
async function run(services: Services): Promise<number> {
  const { config, log } = services;
  const spawned = config.sharding.role === 'shards' && config.sharding.spawned;
  const client = createDiscordClient({
    apiUrl: config.discord.apiUrl,
    ...(config.sharding.role === 'shards' && { shards: { ids: config.sharding.ids, count: config.sharding.count } }),
  });
  let inbox: ShardInbox | null = null;
  const modelWarnings = new ModelWarnings(log);
  // In the background: login and the first interactions never wait for a model.
  const stopChecking = new AbortController();
  const checked = services.checkModels
    ? checkConfiguredModels(config.llm, { log, warnings: modelWarnings, editor: config.editor, signal: stopChecking.signal }).catch(
        (error: unknown) => log.warn(`the start-up model check failed: ${error instanceof Error ? error.message : String(error)}`),
      )
    : Promise.resolve();
  try {
    const ready = await loginClient(client, config.discord.token ?? '');
    log.info(`logged in to Discord as ${ready.user.tag}`);
    const bot = await startBot({
      client: ready,
      log,
      games: services.games,
      personas: services.personas,
      stats: services.stats,
      ratings: services.ratings,
      llmCalls: services.llmCalls,
      llm: config.llm,
      lobbies: config.lobbies,
      devGuildId: config.discord.devGuildId,
      editor: editorDeps(config, services.editorStore),
      ...(services.sharding && { sharding: services.sharding }),
      modelWarnings,
      traceInteractions: config.interactionTrace,
    });
    if (services.sharding && bot.relay) {
      const relay = bot.relay;
      inbox = await openShardInbox({
        url: services.sharding.url,
        shards: services.sharding.shards.ids,
        onItem: relay.receive,
        onError: (error) => log.warn(`shard inbox: ${error instanceof Error ? error.message : String(error)}`),
      });
      log.info(`serving shard(s) ${services.sharding.shards.ids.join(', ')} of ${String(services.sharding.shards.count)}`);
    }
    const stop = await Promise.race([
      stopSignal(spawned).then((signal) => ({ signal, lost: null })),
      services.databaseLost.then((lost) => ({ signal: 'database lost', lost })),
    ]);
    // Every store would fail from now on: stopping lets the supervisor restart the bot, and a start resumes the stored games.
    if (stop.lost !== null) log.error(`${stop.lost}; stopping so the bot can be restarted`);
    const signal = stop.signal;
    log.info(`${signal}: shutting down (a second signal exits at once)`);
    void stopSignal(spawned).then((again) => {
      log.warn(`${again} again: exiting without waiting`);
      process.exit(130);
    });
    await inbox?.close();
    // Games are stored command by command, so abandoning slow work loses nothing: the next start resumes it.
    const stopped = await Promise.race([bot.stop().then(() => true), sleep(SHUTDOWN_GRACE_MS).then(() => false)]);
    if (!stopped) log.warn(`work still running after ${SHUTDOWN_GRACE_MS / 1000} s was abandoned; running games resume at the next start`);
    return stop.lost === null ? 0 : 1;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log.error(
      /token/i.test(message)
        ? `Discord refused the login: ${message}. Check DISCORD_TOKEN (Developer Portal → Bot → Reset Token).`
        : `Discord: ${message}`,
    );
    return 1;
  } finally {
    stopChecking.abort();
    await checked;
    await inbox?.close();
    await client.destroy();
  }
}

/**
 * The next request to stop: SIGINT (Ctrl-C) or SIGTERM. A shard spawned by the sharding manager
 * obeys the manager alone (SIGTERM, or the manager gone): Ctrl-C in a terminal reaches every
 * process of the group, and the manager passes it on to each shard once.
 */
function stopSignal(spawned: boolean): Promise<string> {
  return new Promise((resolve) => {
    const stop = (why: string) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      process.off('disconnect', onGone);
      resolve(why);
    };
    const onInt = () => (spawned ? undefined : stop('SIGINT'));
    const onTerm = () => stop('SIGTERM');
    const onGone = () => stop('the sharding manager is gone');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
    if (spawned) process.on('disconnect', onGone);
  });
}

function processName(sharding: ShardingConfig): string | undefined {
  if (sharding.role === 'manager') return 'manager';
  if (sharding.role === 'shards') return `shard ${sharding.ids.join(',')}`;
  return undefined;
}

/** How long a shutdown waits for handlers and AI work in flight before it closes the database anyway. */
const SHUTDOWN_GRACE_MS = 5_000;

// Exit rather than wait for the event loop: a model call that never answers would keep it open.
process.exit(await main());

/** The editor agent's model from the configuration; without its key the editor says what to set. */
function editorDeps(config: Config, store: EditorStore): BotEditorDeps {
  const llm = editorLlmFromConfig(config);
  return {
    store,
    llm: llm.ok ? llm.value : null,
    noModelReason: llm.ok ? undefined : llm.error,
    maxRounds: config.editor.maxRounds,
    historyTurns: config.editor.historyTurns,
  };
}
