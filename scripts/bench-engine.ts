/** The rules engine and the offline brain, played through the bot's own session and AI driver. */
import type { Brain } from '../src/agents/decision.ts';
import { heuristicBrain } from '../src/agents/heuristic/brain.ts';
import { randomBrain } from '../src/agents/heuristic/random-brain.ts';
import type { AiSeat } from '../src/agents/ai-players.ts';
import { houseSeats, splitBrain } from '../src/agents/seats.ts';
import { playHeadless } from '../src/session/headless-game.ts';

export const PLAYERS = 7;

async function play(seed: number, seats: readonly AiSeat[], recordReasoning = true) {
  const result = await playHeadless({ gameId: `bench-${seed}`, seed, seats, recordReasoning });
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

export async function throughput(games = 3000): Promise<{ gamesPerSecond: number; games: number }> {
  const seats = houseSeats(PLAYERS);
  for (let seed = 0; seed < 200; seed++) await play(1_000_000 + seed, seats); // warm the JIT
  const started = performance.now();
  for (let seed = 0; seed < games; seed++) await play(seed, seats);
  return { gamesPerSecond: games / ((performance.now() - started) / 1000), games };
}

/** Town's win rate when `town` plays the town seats against heuristic Mafia. */
export async function townWinRate(town: Brain, games: number): Promise<number> {
  const seats = houseSeats(PLAYERS, () => splitBrain(heuristicBrain(), town));
  let wins = 0;
  for (let seed = 1; seed <= games; seed++) {
    const outcome = (await play(seed, seats, false)).outcome;
    if (outcome?.kind === 'win' && outcome.faction === 'town') wins++;
  }
  return wins / games;
}

export const randomTown = randomBrain;
