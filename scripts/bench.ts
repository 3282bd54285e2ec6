/**
 * Measures the engine and the offline brain. Figures are printed with their
 * ratio to the targets; nothing here asserts, the numbers speak.
 */
import { playGame, type TableSeat } from '../src/agents/table.ts';
import { heuristicBrain } from '../src/agents/heuristic/brain.ts';
import { randomBrain } from '../src/agents/heuristic/random-brain.ts';
import { houseSeats, splitBrain } from '../src/agents/seats.ts';
import type { Brain } from '../src/agents/decision.ts';

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
