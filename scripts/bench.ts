/**
 * `npm run bench`: every figure the issues name, printed with its ratio to the target; nothing here
 * asserts, the numbers speak. `--json FILE` also writes them under their keys (e.g.
 * `llm.callsPerGame`); `--only engine,llm,realtime,personas,pictures,discord,soak` runs just those sections;
 * `--games N` and `--db pglite|postgres` set the Discord section's concurrent games (default 100) and database
 * (the soak's too); `--soak-games N` the soak's length (default 2,000).
 */
import { writeFile } from 'node:fs/promises';
import { flagsOrExit } from './cli.ts';
import { discordSection } from './bench-discord.ts';
import { BENCH_DATABASES } from './bench-discord-db.ts';
import { beliefFigures, PLAYERS, randomTown, throughput, townWinRate } from './bench-engine.ts';
import { llmSection } from './bench-llm-section.ts';
import { ratio } from './lib/bench-ratio.ts';
import { benchPersonaSearch } from './bench-personas.ts';
import { benchPictures } from './bench-pictures.ts';
import { benchRealtime, REALTIME_SHAPE } from './bench-realtime.ts';
import { soakSection } from './bench-soak.ts';
import { heuristicBrain } from '../src/agents/heuristic/brain.ts';

const SECTIONS = ['engine', 'llm', 'realtime', 'personas', 'pictures', 'discord', 'soak'] as const;
type Section = (typeof SECTIONS)[number];

const flags = flagsOrExit('npm run bench', 'Measures every figure the issues name and prints it with its ratio to the target.', {
  json: { kind: 'text', help: 'Also write the figures to this JSON file, under their keys (e.g. llm.callsPerGame).' },
  only: { kind: 'text', help: `Comma-separated sections to run, from ${SECTIONS.join(', ')} (default: all).` },
  games: { kind: 'int', default: 100, min: 1, max: 1000, help: 'Concurrent games in the Discord section.' },
  db: {
    kind: 'choice',
    default: 'pglite',
    choices: BENCH_DATABASES,
    help: "The Discord section's and the soak's database (postgres: TEST_DATABASE_URL or the local test server).",
  },
  'soak-games': { kind: 'int', default: 2000, min: 1, max: 1_000_000, help: 'Games the soak plays on one bot.' },
  'soak-at-once': { kind: 'int', default: 100, min: 1, max: 1000, help: 'Games the soak plays at a time (one per channel).' },
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

async function engineSection(): Promise<void> {
  out(`Rules engine + offline brain, ${PLAYERS}-player games through the bot's session and AI driver (Node ${process.version}):`);
  const { gamesPerSecond, games } = await throughput();
  out(
    `  games per second, one core (${games} games, reasoning recorded): ${gamesPerSecond.toFixed(0)}  [target ≥ 2000: ${ratio(gamesPerSecond, 2000)}]`,
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

async function llm(): Promise<void> {
  figures.llm = await llmSection(out);
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

async function soak(): Promise<void> {
  figures.soak = await soakSection(out, {
    games: flags['soak-games'],
    atOnce: flags['soak-at-once'],
    db: flags.db,
    postgresUrl: process.env.TEST_DATABASE_URL?.trim() || undefined,
  });
}

const RUN: Record<Section, () => Promise<void>> = {
  engine: engineSection,
  llm,
  realtime: realtimeSection,
  personas: personasSection,
  pictures: picturesSection,
  discord,
  soak,
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
