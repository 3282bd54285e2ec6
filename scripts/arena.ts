/**
 * `npm run arena -- --games N --seats SPEC`: all-AI games of personas and models, each entry moved
 * round the table from game to game, then a table per persona and per model: win rates as Town and
 * as Mafia, an openskill rating, belief accuracy, fallbacks, tokens and dollars; `--json FILE` also
 * writes Town's win rate and the ratings. Offline entries play the heuristic brain; model entries
 * need their provider configured (`.env`, as for the bot).
 */
import 'dotenv/config';
import { writeFile } from 'node:fs/promises';
import { createProvider } from '../src/llm/providers.ts';
import type { LlmProvider, ProviderName } from '../src/llm/types.ts';
import { exitRefused } from './cli.ts';
import { runArena } from './lib/arena.ts';
import { readArenaArgs, withUsage } from './lib/arena-args.ts';
import { arenaFigures } from './lib/arena-figures.ts';
import { arenaReport } from './lib/arena-table.ts';
import { probeModel } from './lib/probe.ts';

const read = await readArenaArgs(process.argv.slice(2), process.env);
if (!read.ok) exitRefused(read.error);
const { entries, games, seed, json, env } = read.value;

// One client per provider for every game; each model answers one small call first, so a wrong key or name shows at once.
const clients = new Map<ProviderName, LlmProvider>();
const probed = new Set<string>();
for (const e of entries) {
  if (e.plays.provider === 'offline' || probed.has(e.model)) continue;
  probed.add(e.model);
  let client = clients.get(e.plays.provider);
  if (!client) {
    const created = createProvider(e.plays.provider, env);
    if (!created.ok) exitRefused({ kind: 'mistake', text: withUsage(created.error) });
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
  entries,
  games,
  seed,
  env,
  providers: (name) => clients.get(name) ?? null,
  onGame: (n) => {
    if (n % 10 === 0 || n === games) console.error(`${n}/${games} games played`);
  },
});
console.log(arenaReport(result));
if (json) {
  await writeFile(json, `${JSON.stringify(arenaFigures(result), null, 2)}\n`);
  console.log(`figures written to ${json}`);
}
