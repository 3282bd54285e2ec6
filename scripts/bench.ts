/**
 * Measures the engine and the offline brain. Figures are printed with their
 * ratio to the targets; nothing here asserts, the numbers speak.
 */
import { playGame, type TableSeat } from '../src/agents/table.ts';
import { heuristicBrain } from '../src/agents/heuristic/brain.ts';
import { randomBrain } from '../src/agents/heuristic/random-brain.ts';
import { houseSeats, splitBrain } from '../src/agents/seats.ts';
import type { Brain } from '../src/agents/decision.ts';
import { benchLlmTable } from './bench-llm.ts';
import { benchPersonaSearch } from './bench-personas.ts';
import { discordSection } from './bench-discord.ts';

const PLAYERS = 7;

async function play(seed: number, seats: readonly TableSeat[], recordReasoning = true) {
  const result = await playGame({ gameId: `bench-${seed}`, seed, seats, recordReasoning, voting: 'sequential' });
  if (!result.ok) throw new Error(result.error);
  return result.state;
}

function ratio(value: number, target: number, higherIsBetter = true): string {
  const r = higherIsBetter ? value / target : target / value;
  return `${r.toFixed(2)}× target ${r >= 1 ? '✓' : '✗'}`;
}

async function throughput(): Promise<{ gamesPerSecond: number; games: number }> {
  const seats = houseSeats(PLAYERS);
  for (let seed = 0; seed < 200; seed++) await play(1_000_000 + seed, seats); // warm the JIT
  const games = 3000;
  const started = performance.now();
  for (let seed = 0; seed < games; seed++) await play(seed, seats);
  const seconds = (performance.now() - started) / 1000;
  return { gamesPerSecond: games / seconds, games };
}

async function townWinRate(town: Brain, games: number): Promise<number> {
  const seats = houseSeats(PLAYERS, () => splitBrain(heuristicBrain(), town));
  let wins = 0;
  for (let seed = 1; seed <= games; seed++) {
    const outcome = (await play(seed, seats, false)).outcome;
    if (outcome?.kind === 'win' && outcome.faction === 'town') wins++;
  }
  return wins / games;
}

const lines: string[] = [];
const out = (line: string) => {
  lines.push(line);
  console.log(line);
};

out(`Dramatis bench — rules engine + offline brain, ${PLAYERS}-player games (Node ${process.version})`);
const { gamesPerSecond, games } = await throughput();
out(`games per second, one core (${games} games, reasoning recorded): ${gamesPerSecond.toFixed(0)}  [target ≥ 1000: ${ratio(gamesPerSecond, 1000)}]`);
const usage = process.resourceUsage();
const heap = process.memoryUsage();
out(`peak memory: ${(usage.maxRSS / 1024).toFixed(1)} MiB resident (heap now ${(heap.heapUsed / 2 ** 20).toFixed(1)} MiB)`);

const GAMES = 1000;
const heuristic = await townWinRate(heuristicBrain(), GAMES);
const random = await townWinRate(randomBrain(), GAMES);
const gap = (heuristic - random) * 100;
out(`town win rate vs heuristic Mafia over ${GAMES} games: heuristic Town ${(heuristic * 100).toFixed(1)} %, random-move Town ${(random * 100).toFixed(1)} %`);
out(`heuristic advantage: ${gap.toFixed(1)} points  [target ≥ 15: ${ratio(gap, 15)}]`);

const LATENCY_MS = 500;
const llm = await benchLlmTable(LATENCY_MS);
out('');
out(`8-seat all-AI game of LLM seats against the OpenAI wire fake at a fixed latency L = ${LATENCY_MS} ms:`);
const perDecision = llm.calls / (llm.decisions + llm.summaries);
out(`  model calls: ${llm.calls} for ${llm.decisions} decisions and ${llm.summaries} day summaries = ${perDecision.toFixed(2)} per decision; speaking order costs no call  [target ≤ 1: ${ratio(perDecision, 1, false)}]`);
for (const [day, tokens] of llm.inputTokensByDay) {
  const target = day === 3 ? `  [target ≤ 4000 on day 3: ${ratio(tokens.max, 4000, false)}]` : '';
  out(`  input tokens per call, day ${day} (estimated at 4 characters a token): mean ${tokens.mean.toFixed(0)}, max ${tokens.max.toFixed(0)}${target}`);
}
out(`  share of each prompt that is the stable, cacheable prefix: ${(llm.stableShare * 100).toFixed(1)} %  [target ≥ 70 %: ${ratio(llm.stableShare, 0.7)}]`);
for (const [phase, r] of llm.phaseRatios) {
  out(`  ${phase} phases: wall time / (sequential model depth × L) = ${r.toFixed(3)} (${(llm.phaseOverheadMs.get(phase) ?? 0).toFixed(0)} ms beyond the model's time)  [target ≤ 1.1: ${ratio(r, 1.1, false)}]`);
}

const search = await benchPersonaSearch();
out('');
out(`persona autocomplete over ${search.personas} personas (in-memory index): p50 ${search.p50.toFixed(2)} ms, p99 ${search.p99.toFixed(2)} ms  [target < 50 ms: ${ratio(search.p99, 50, false)}]`);

out('');
await discordSection(out);
