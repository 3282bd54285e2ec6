/** Only the Discord section of `npm run bench`: `npm run bench:discord [-- --games N --db pglite|postgres --json FILE]`. */
import { writeFile } from 'node:fs/promises';
import { flagsOrExit } from './cli.ts';
import { discordSection } from './bench-discord.ts';
import { BENCH_DATABASES, DEFAULT_POSTGRES_URL } from './bench-discord-db.ts';

const flags = flagsOrExit('npm run bench:discord', 'Only the Discord section of npm run bench.', {
  games: { kind: 'int', default: 100, min: 1, max: 1000, help: 'Concurrent games.' },
  db: {
    kind: 'choice',
    default: 'pglite',
    choices: BENCH_DATABASES,
    help: "PGlite in a fresh directory of the bot's, or a schema of its own on a PostgreSQL server.",
  },
  'database-url': {
    kind: 'text',
    help: `The PostgreSQL server for --db postgres (default TEST_DATABASE_URL, else ${DEFAULT_POSTGRES_URL}).`,
  },
  shards: {
    kind: 'int',
    default: 1,
    min: 1,
    max: 64,
    help: 'Bot processes, one `src/main.ts` per shard on real time, the simulator in this process (more than 1 needs --db postgres).',
  },
  json: { kind: 'text', help: 'Also write the figures to this JSON file, under discord.* (discord.ackP99Ms …).' },
});
if (flags.shards > 1 && flags.db !== 'postgres') {
  console.error('--shards: several shard processes share one database, which must be a PostgreSQL server: add --db postgres.');
  process.exit(2);
}
const discord = await discordSection((line) => console.log(line), {
  games: flags.games,
  db: flags.db,
  postgresUrl: flags['database-url'] ?? (process.env.TEST_DATABASE_URL?.trim() || undefined),
  shards: flags.shards,
});
if (flags.json) {
  await writeFile(flags.json, `${JSON.stringify({ discord }, null, 2)}\n`);
  console.log(`figures written to ${flags.json}`);
}
