/**
 * `npm run arena -- --games N --seats SPEC`: all-AI games of personas and models, each entry moved
 * round the table from game to game, then a table per persona and per model: win rates as Town and
 * as Mafia, an openskill rating, belief accuracy, fallbacks, tokens and dollars; `--json FILE` also
 * writes Town's win rate and the ratings. Offline entries play the heuristic brain; model entries
 * need their provider configured (`.env`, as for the bot).
 */
import 'dotenv/config';
import { writeFile } from 'node:fs/promises';
import { loadConfig } from '../src/config.ts';
import { createProvider } from '../src/llm/providers.ts';
import type { LlmProvider, ProviderName } from '../src/llm/types.ts';
import { flagsOrExit, usage, type Flag } from './cli.ts';
import { runArena } from './lib/arena.ts';
import { arenaFigures } from './lib/arena-figures.ts';
import { parseSeats, SEATS_HELP, unconfigured } from './lib/arena-seats.ts';
import { arenaReport } from './lib/arena-table.ts';
import { starterPersonas } from './lib/demo-personas.ts';
import { probeModel } from './lib/probe.ts';

const COMMAND = 'npm run arena';
const SUMMARY = 'Plays all-AI games of personas and models, each moved round the table, and rates them per persona and per model.';
const FLAGS = {
  games: { kind: 'int', default: 20, min: 1, max: 10_000, help: 'Games to play.' },
  seats: { kind: 'text', help: SEATS_HELP },
  seed: { kind: 'int', default: 1, min: 0, max: 2 ** 31 - 1, help: 'The first deal; the same seed and seats play the same games offline.' },
  json: {
    kind: 'text',
    help: 'Also write the figures to this JSON file (townWinRate, ratings.personas[] and ratings.models[] with name, mu, sigma).',
  },
} satisfies Record<string, Flag>;

const flags = flagsOrExit(COMMAND, SUMMARY, FLAGS);
function mistake(message: string): never {
  console.error(`${message}\n\n${usage(COMMAND, SUMMARY, FLAGS)}`);
  process.exit(2);
}

const loaded = loadConfig(process.env);
if (!loaded.ok) mistake(loaded.error);
const env = loaded.value.llm;
if (flags.seats === undefined) mistake('--seats is required.');
const entries = parseSeats(flags.seats, await starterPersonas(), env);
if (!entries.ok) mistake(entries.error);
const missing = unconfigured(entries.value, env);
if (missing.length > 0) {
  console.error(
    `${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not configured: set ${missing.map((p) => (p === 'openai' ? 'OPENAI_API_KEY or OPENAI_BASE_URL' : 'ANTHROPIC_API_KEY')).join(', ')} in .env, or seat offline entries.`,
  );
  process.exit(2);
}

// One client per provider for every game; each model answers one small call first, so a wrong key or name shows at once.
const clients = new Map<ProviderName, LlmProvider>();
const probed = new Set<string>();
for (const e of entries.value) {
  if (e.plays.provider === 'offline' || probed.has(e.model)) continue;
  probed.add(e.model);
  let client = clients.get(e.plays.provider);
  if (!client) {
    const created = createProvider(e.plays.provider, env);
    if (!created.ok) mistake(created.error);
    client = created.value;
    clients.set(e.plays.provider, client);
  }
  const probe = await probeModel(client, e.plays.model);
  if (!probe.ok) {
    console.error(
      `${e.model} did not answer (${probe.error.kind}${probe.error.status ? ` ${probe.error.status}` : ''}): ${probe.error.message}`,
    );
    process.exit(1);
  }
}

const result = await runArena({
  entries: entries.value,
  games: flags.games,
  seed: flags.seed,
  env,
  providers: (name) => clients.get(name) ?? null,
  onGame: (n) => {
    if (n % 10 === 0 || n === flags.games) console.error(`${n}/${flags.games} games played`);
  },
});
console.log(arenaReport(result));
if (flags.json) {
  await writeFile(flags.json, `${JSON.stringify(arenaFigures(result), null, 2)}\n`);
  console.log(`figures written to ${flags.json}`);
}
