import 'dotenv/config';
import { loadConfig, type Config } from './config.ts';
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
}

async function main(): Promise<number> {
  const loaded = loadConfig(process.env);
  if (!loaded.ok) {
    console.error(loaded.error);
    return 1;
  }
  const config = loaded.value;
  const log = createLogger(config.logLevel);
  // Before the database: without a token there is nothing to serve, and the fix is in the message.
  if (!config.discord.token) {
    console.error(MISSING_TOKEN_MESSAGE);
    return 1;
  }

  log.info(`preparing the ${config.database.kind} database`);
  const prepared = await prepareDatabase(config.database);
  if (!prepared.ok) {
    log.error(prepared.error);
    return 1;
  }
  const db = prepared.value;
  try {
    const personas = createPersonaStore(db.prisma);
    const starters = await loadStarterPack(personas);
    if (!starters.ok) {
      log.error(`starter pack: ${starters.error.message}`);
      return 1;
    }
    log.info(
      `starter pack: ${starters.value.created.length} created, ${starters.value.updated.length} updated, ${starters.value.unchanged.length} unchanged`,
    );
    return await run({
      config,
      log,
      games: createGameStore(db.prisma),
      personas,
      stats: createStatsStore(db.prisma),
      ratings: createRatingStore(db.prisma),
      llmCalls: createLlmCallStore(db.prisma),
      editorStore: createEditorStore(db.prisma),
    });
  } finally {
    await db.close();
  }
}

/** Logs in, serves until SIGINT/SIGTERM, then stops cleanly (running games stay stored and resume next start). */
async function run(services: Services): Promise<number> {
  const { config, log } = services;
  const client = createDiscordClient({ apiUrl: config.discord.apiUrl });
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
      devGuildId: config.discord.devGuildId,
      editor: editorDeps(config, services.editorStore),
    });
    const signal = await new Promise<NodeJS.Signals>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    log.info(`${signal}: shutting down (a second signal exits at once)`);
    const now = (again: NodeJS.Signals) => {
      log.warn(`${again} again: exiting without waiting`);
      process.exit(130);
    };
    process.once('SIGINT', now);
    process.once('SIGTERM', now);
    // Games are stored command by command, so abandoning slow work loses nothing: the next start resumes it.
    const stopped = await Promise.race([bot.stop().then(() => true), sleep(SHUTDOWN_GRACE_MS).then(() => false)]);
    if (!stopped) log.warn(`work still running after ${SHUTDOWN_GRACE_MS / 1000} s was abandoned; running games resume at the next start`);
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log.error(
      /token/i.test(message)
        ? `Discord refused the login: ${message}. Check DISCORD_TOKEN (Developer Portal → Bot → Reset Token).`
        : `Discord: ${message}`,
    );
    return 1;
  } finally {
    await client.destroy();
  }
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
