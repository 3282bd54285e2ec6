/**
 * `npm run bench`: every figure the issues name, printed with its ratio to the target; nothing here
 * asserts, the numbers speak. `--json FILE` also writes them under their keys (e.g.
 * `llm.callsPerGame`); `--only engine,llm,realtime,personas,pictures,discord` runs just those sections;
 * `--games N` and `--db pglite|postgres` set the Discord section's concurrent games (default 100) and database.
 */
import { writeFile } from 'node:fs/promises';
import { flagsOrExit } from './cli.ts';
import { discordSection } from './bench-discord.ts';
import { BENCH_DATABASES } from './bench-discord-db.ts';
import { beliefFigures, PLAYERS, randomTown, throughput, townWinRate } from './bench-engine.ts';
import { benchLatency, benchProviderGame, PRICE, type ProviderGameFigures } from './bench-llm.ts';
import { mean, sampleMean, type SampleMean } from './lib/sample-mean.ts';
import type { ProviderName } from '../src/llm/types.ts';
import { benchPersonaSearch } from './bench-personas.ts';
import { benchPictures } from './bench-pictures.ts';
import { benchRealtime, REALTIME_SHAPE } from './bench-realtime.ts';
import { heuristicBrain } from '../src/agents/heuristic/brain.ts';

const SECTIONS = ['engine', 'llm', 'realtime', 'personas', 'pictures', 'discord'] as const;
type Section = (typeof SECTIONS)[number];

const flags = flagsOrExit('npm run bench', 'Measures every figure the issues name and prints it with its ratio to the target.', {
  json: { kind: 'text', help: 'Also write the figures to this JSON file, under their keys (e.g. llm.callsPerGame).' },
  only: { kind: 'text', help: `Comma-separated sections to run, from ${SECTIONS.join(', ')} (default: all).` },
  games: { kind: 'int', default: 100, min: 1, max: 1000, help: 'Concurrent games in the Discord section.' },
  db: {
    kind: 'choice',
    default: 'pglite',
    choices: BENCH_DATABASES,
    help: "The Discord section's database (postgres: TEST_DATABASE_URL or the local test server).",
  },
});
const only = flags.only ? flags.only.split(',').map((s) => s.trim()) : [...SECTIONS];
const unknown = only.filter((s) => !(SECTIONS as readonly string[]).includes(s));
if (unknown.length > 0) {
  console.error(`--only takes sections from ${SECTIONS.join(', ')} (unknown: ${unknown.join(', ')}). See npm run bench -- --help.`);
  process.exit(2);
}

type Figures = Record<string, Record<string, unknown>>;
const figures: Figures = {};
const out = (line: string) => console.log(line);

function ratio(value: number, target: number, higherIsBetter = true): string {
  const r = higherIsBetter ? value / target : value === 0 ? Number.POSITIVE_INFINITY : target / value;
  return `${Number.isFinite(r) ? r.toFixed(2) : '∞'}× target ${r >= 1 ? '✓' : '✗'}`;
}

async function engineSection(): Promise<void> {
  out(`Rules engine + offline brain, ${PLAYERS}-player games through the bot's session and AI driver (Node ${process.version}):`);
  const { gamesPerSecond, games } = await throughput();
  out(
    `  games per second, one core (${games} games, reasoning recorded): ${gamesPerSecond.toFixed(0)}  [target ≥ 1000: ${ratio(gamesPerSecond, 1000)}]`,
  );
  const peakRssMiB = process.resourceUsage().maxRSS / 1024;
  out(`  peak memory: ${peakRssMiB.toFixed(1)} MiB resident`);
  const GAMES = 1000;
  const heuristic = await townWinRate(heuristicBrain(), GAMES);
  const random = await townWinRate(randomTown(), GAMES);
  const gap = (heuristic - random) * 100;
  out(
    `  town win rate vs heuristic Mafia over ${GAMES} games: heuristic Town ${(heuristic * 100).toFixed(1)} %, random-move Town ${(random * 100).toFixed(1)} %`,
  );
  out(`  heuristic advantage: ${gap.toFixed(1)} points  [target ≥ 15: ${ratio(gap, 15)}]`);
  const belief = await beliefFigures(GAMES);
  out(
    `  belief accuracy of the Town seats, mean Brier score of the offline brain's suspicions over ${belief.townSeatDays} Town seat-days of ${belief.games} all-AI games (lower is better): ${belief.brierTown.toFixed(3)} against a uniform prior's ${belief.brierTownUniform.toFixed(3)} (ratio ${(belief.brierTown / belief.brierTownUniform).toFixed(2)}; below 1 beats the prior); top suspect Mafia on ${(belief.topSuspectRightTown * 100).toFixed(1)} % of Town seat-days`,
  );
  out(
    `  Mafia seats apart, ${belief.mafiaSeatDays} seat-days (their suspicions are the town's eye they play, not probabilities): Brier ${belief.brierMafia.toFixed(3)} against ${belief.brierMafiaPrior.toFixed(3)} for what they know (their team Mafia, everyone else town)`,
  );
  figures.engine = {
    gamesPerSecond,
    peakRssMiB,
    townWinRate: { heuristic, random },
    heuristicAdvantagePoints: gap,
    brierTown: belief.brierTown,
    brierTownUniform: belief.brierTownUniform,
    topSuspectRightTown: belief.topSuspectRightTown,
    brierMafia: belief.brierMafia,
    brierMafiaPrior: belief.brierMafiaPrior,
  };
}

/**
 * Games per provider (seeds 1 to N). One game's cost depends mostly on how long it runs (2 to 4
 * days, $0.11 to $0.33), so a handful of seeds says little: across games the cost varies by about
 * $0.05, and 400 games put the mean within about ±$0.005 (95 %), a fortieth of the target.
 */
const LLM_GAMES = 400;

async function llmSection(): Promise<void> {
  out(
    `${LLM_GAMES} all-AI 7-player games of the starter personas per provider (seeds 1–${LLM_GAMES}), through the real SDKs against the wire fakes (caching modelled as documented; the fake writes 70 % of each field's stated length), at $${PRICE.input} / $${PRICE.output} per million input / output tokens, cache reads at 10 %, writes at 125 %:`,
  );
  const games: Record<ProviderName, ProviderGameFigures[]> = { openai: [], anthropic: [] };
  // Both providers play the same games (the fakes answer alike), so a seed's length is told once.
  const byLength = new Map<number, { openai: number[]; anthropic: number[] }>();
  for (let seed = 1; seed <= LLM_GAMES; seed++) {
    const o = await benchProviderGame('openai', seed);
    const a = await benchProviderGame('anthropic', seed);
    games.openai.push(o);
    games.anthropic.push(a);
    const group = byLength.get(o.days) ?? { openai: [], anthropic: [] };
    group.openai.push(o.dollars);
    group.anthropic.push(a.dollars);
    byLength.set(o.days, group);
  }
  const lengths = [...byLength].sort((x, y) => x[0] - y[0]);
  for (const [days, group] of lengths) {
    out(
      `  ended on day ${days}: ${group.openai.length} games (${((group.openai.length / LLM_GAMES) * 100).toFixed(1)} %), $${mean(group.openai).toFixed(3)} / $${mean(group.anthropic).toFixed(3)} a game (OpenAI / Anthropic)`,
    );
  }
  const all = [...games.openai, ...games.anthropic];
  const calls = sampleMean(all.map((f) => f.calls));
  const callsPerGame = calls.mean;
  const inputTokensPerGame = mean(all.map((f) => f.inputTokens));
  const outputTokensPerCall = all.reduce((n, f) => n + f.outputTokens, 0) / all.reduce((n, f) => n + f.calls, 0);
  const share = (fs: readonly ProviderGameFigures[]) =>
    fs.reduce((n, f) => n + f.cachedInputTokens, 0) / fs.reduce((n, f) => n + f.inputTokens, 0);
  const cost = { openai: sampleMean(games.openai.map((f) => f.dollars)), anthropic: sampleMean(games.anthropic.map((f) => f.dollars)) };
  const dollars = { openai: cost.openai.mean, anthropic: cost.anthropic.mean };
  const dollarsPerGame = Math.max(dollars.openai, dollars.anthropic);
  const told = (s: SampleMean) => `$${s.mean.toFixed(3)} ± ${s.ci95.toFixed(3)} (95 %; one game $${s.min.toFixed(2)}–$${s.max.toFixed(2)})`;
  out(
    `  model calls per game (mean): ${callsPerGame.toFixed(1)} (one game ${calls.min}–${calls.max})  [target ≤ 40: ${ratio(callsPerGame, 40, false)}]`,
  );
  const purposes = [...new Set(all.flatMap((f) => Object.keys(f.callsByPurpose)))]
    .map((p) => `${p} ${mean(all.map((f) => f.callsByPurpose[p] ?? 0)).toFixed(1)}`)
    .join(', ');
  out(`  calls per game by purpose (mean): ${purposes}`);
  out(
    `  input tokens per game (mean): ${inputTokensPerGame.toFixed(0)}, Anthropic's written to its cache ${mean(games.anthropic.map((f) => f.cacheWriteInputTokens)).toFixed(0)}; output tokens per call: ${outputTokensPerCall.toFixed(0)}`,
  );
  out(
    `  cache-read share of input tokens: Anthropic ${(share(games.anthropic) * 100).toFixed(1)} %  [target ≥ 60 %: ${ratio(share(games.anthropic), 0.6)}], OpenAI ${(share(games.openai) * 100).toFixed(1)} %  [target ≥ 60 %: ${ratio(share(games.openai), 0.6)}]`,
  );
  out(
    `  dollars per game (mean; OpenAI ${told(cost.openai)}, Anthropic ${told(cost.anthropic)}): $${dollarsPerGame.toFixed(3)}  [target ≤ $0.20: ${ratio(dollarsPerGame, 0.2, false)}; anchors: Kaggle werewolf arena ~$0.64, AI Werewolf ~$0.54]`,
  );
  const latency = await benchLatency();
  out(
    `  8-seat game against a fake of fixed latency L = ${latency.latencyMs} ms: phase wall time / (sequential model depth × L): ${[...latency.phaseRatios].map(([p, r]) => `${p} ${r.toFixed(3)}`).join(', ')}  [target ≤ 1.1: ${ratio(1.1, Math.max(...latency.phaseRatios.values()))}]`,
  );
  figures.llm = {
    callsPerGame,
    inputTokensPerGame,
    outputTokensPerCall,
    cacheReadShare: { anthropic: share(games.anthropic), openai: share(games.openai) },
    dollarsPerGame,
    dollarsPerGameByProvider: dollars,
    dollarsPerGameCi95: { openai: cost.openai.ci95, anthropic: cost.anthropic.ci95 },
    games: LLM_GAMES,
    gamesByLength: Object.fromEntries(lengths.map(([days, group]) => [`day${days}`, group.openai.length])),
    phaseWallRatio: Object.fromEntries(latency.phaseRatios),
  };
}

async function realtimeSection(): Promise<void> {
  out(
    `AI seats in real time: 20 games of 4 AI seats and 3 people, default timers, a model with latency p50 ${REALTIME_SHAPE.p50Ms / 1000} s / p95 ${REALTIME_SHAPE.p95Ms / 1000} s, ${REALTIME_SHAPE.hangShare * 100} % calls that never answer, ${REALTIME_SHAPE.rateLimitShare * 100} % 429s (manual clock):`,
  );
  const f = await benchRealtime(20);
  out(
    `  AI votes and night actions due: ${f.movesDue}; missed: ${f.movesMissed}  [target 0: ${f.movesMissed === 0 ? '✓' : '✗'}]${f.missed.length > 0 ? ` (${f.missed.slice(0, 3).join('; ')})` : ''}`,
  );
  out(`  decisions the offline brain made in the model's place: ${(f.fallbackShare * 100).toFixed(1)} %`);
  out(
    `  longest any phase ran past its deadline: ${f.overrunMsMax} ms  [target < 1000: ${f.overrunMsMax < 1000 ? '✓' : '✗'}]; ${(f.wallMs / 1000).toFixed(1)} s of real time for ${f.games} games`,
  );
  figures.realtime = { movesDue: f.movesDue, movesMissed: f.movesMissed, fallbackShare: f.fallbackShare, overrunMsMax: f.overrunMsMax };
}

async function personasSection(): Promise<void> {
  const search = await benchPersonaSearch();
  out(
    `Persona autocomplete over ${search.personas} personas (in-memory index): p50 ${search.p50.toFixed(2)} ms, p99 ${search.p99.toFixed(2)} ms  [target < 50 ms: ${ratio(search.p99, 50, false)}]`,
  );
  figures.personas = { autocompleteP50Ms: search.p50, autocompleteP99Ms: search.p99, personas: search.personas };
}

async function picturesSection(): Promise<void> {
  out("Director's-cut pictures (vote flow and suspicion heatmap) of offline all-AI games, drawn off the event loop:");
  const drawn: Record<string, unknown> = {};
  for (const players of [7, 16]) {
    const f = await benchPictures(players);
    const sizes = f.files.map((file) => `${file.name} ${file.kib.toFixed(0)} KiB, 1200×${file.height}`).join('; ');
    out(`  ${players} players, ${f.days} days: both pictures in ${f.medianMs.toFixed(0)} ms (median of 5); ${sizes}`);
    drawn[`players${players}`] = { medianMs: f.medianMs, days: f.days, files: f.files };
  }
  figures.pictures = drawn;
}

async function discord(): Promise<void> {
  figures.discord = await discordSection(out, {
    games: flags.games,
    db: flags.db,
    postgresUrl: process.env.TEST_DATABASE_URL?.trim() || undefined,
  });
}

const RUN: Record<Section, () => Promise<void>> = {
  engine: engineSection,
  llm: llmSection,
  realtime: realtimeSection,
  personas: personasSection,
  pictures: picturesSection,
  discord,
};
for (const section of SECTIONS) {
  if (!only.includes(section)) continue;
  await RUN[section]();
  out('');
}
if (flags.json) {
  await writeFile(flags.json, `${JSON.stringify(figures, null, 2)}\n`);
  out(`figures written to ${flags.json}`);
}
