/** The rules engine and the offline brain, played through the bot's own session and AI driver. */
import type { Brain } from '../src/agents/decision.ts';
import { heuristicBrain } from '../src/agents/heuristic/brain.ts';
import { randomBrain } from '../src/agents/heuristic/random-brain.ts';
import type { AiSeat } from '../src/agents/ai-players.ts';
import { houseSeats, splitBrain } from '../src/agents/seats.ts';
import { isMafia } from '../src/game/index.ts';
import { beliefAccuracy, meanOverDays, type SeatRead } from '../src/report/belief-accuracy.ts';
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

export interface BeliefFigures {
  readonly games: number;
  readonly seatDays: number;
  /** Mean Brier score over every AI seat and day: the offline brain's suspicions. */
  readonly brier: number;
  /** The same seat-days scored with the uniform prior. */
  readonly uniformBrier: number;
  /** Town seats only (a Mafia seat's suspicions are its guess at the town's, by design). */
  readonly townBrier: number;
  readonly townUniformBrier: number;
  /** Town seat-days whose single top suspect was Mafia, of those with one. */
  readonly townTopSuspectRight: number;
}

/** How well the offline brain reads the table (src/report/belief-accuracy.ts) over seeded all-AI games. */
export async function beliefFigures(games: number): Promise<BeliefFigures> {
  const reads: SeatRead[] = [];
  for (let seed = 1; seed <= games; seed++) reads.push(...(beliefAccuracy(await play(seed, houseSeats(PLAYERS))) ?? []));
  const town = reads.filter((r) => !isMafia(r.role));
  const tops = town.flatMap((r) => r.days.flatMap((d) => (d.topSuspectMafia === null ? [] : [d.topSuspectMafia])));
  const must = (x: number | null) => x ?? Number.NaN;
  return {
    games,
    seatDays: reads.reduce((n, r) => n + r.days.length, 0),
    brier: must(meanOverDays(reads, (d) => d.brier)),
    uniformBrier: must(meanOverDays(reads, (d) => d.uniformBrier)),
    townBrier: must(meanOverDays(town, (d) => d.brier)),
    townUniformBrier: must(meanOverDays(town, (d) => d.uniformBrier)),
    townTopSuspectRight: tops.filter(Boolean).length / tops.length,
  };
}
