import 'dotenv/config';
import { loadConfig, type Config } from './config.ts';
import { createGameStore, type GameStore } from './db/game-store.ts';
import { createPersonaStore, type PersonaStore } from './db/persona-store.ts';
import { prepareDatabase } from './db/prepare-database.ts';
import { createLogger, type Logger } from './log.ts';
import { loadStarterPack } from './persona/starter-pack.ts';

/** Everything the bot needs, built once at boot. */
interface Services {
  config: Config;
  log: Logger;
  games: GameStore;
  personas: PersonaStore;
}

async function main(): Promise<number> {
  const loaded = loadConfig(process.env);
  if (!loaded.ok) {
    console.error(loaded.error);
    return 1;
  }
  const { config } = loaded;
  const log = createLogger(config.logLevel);

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
    log.info(`starter pack: ${starters.value.created.length} created, ${starters.value.updated.length} updated, ${starters.value.unchanged.length} unchanged`);
    return await run({ config, log, games: createGameStore(db.prisma), personas });
  } finally {
    await db.close();
  }
}

// The Discord client plugs in here: log in, serve until a shutdown signal, return an exit code.
async function run(services: Services): Promise<number> {
  services.log.info('database ready');
  services.log.info('the Discord client lands in a later issue; nothing to serve yet, exiting');
  return 0;
}

process.exitCode = await main();
