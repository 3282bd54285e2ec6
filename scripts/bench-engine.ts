/** The rules engine and the offline brain, played through the bot's own session and AI driver. */
import type { Brain } from '../src/agents/decision.ts';
import { heuristicBrain } from '../src/agents/heuristic/brain.ts';
import { randomBrain } from '../src/agents/heuristic/random-brain.ts';
import type { AiSeat } from '../src/agents/ai-seats.ts';
import { houseSeats, splitBrain } from '../src/agents/seats.ts';
import { beliefAccuracy, bySide, meanOverDays, type SeatRead } from '../src/report/belief-accuracy.ts';
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
  /** Seat-days scored, by side. */
  readonly townSeatDays: number;
  readonly mafiaSeatDays: number;
  /** Mean Brier score of the Town seats' suspicions (seats outside the Mafia): the headline. */
  readonly brierTown: number;
  /** The same seat-days scored with the uniform prior. */
  readonly brierTownUniform: number;
  /** Town seat-days whose single top suspect was Mafia, of those with one. */
  readonly topSuspectRightTown: number;
  /** The Mafia seats' town-eye reads: not probabilities, reported apart. */
  readonly brierMafia: number;
  /** The same seat-days scored with what a Mafia seat knows (its team Mafia, everyone else town). */
  readonly brierMafiaPrior: number;
}

/** How well the offline brain reads the table (src/report/belief-accuracy.ts) over seeded all-AI games, by side. */
export async function beliefFigures(games: number): Promise<BeliefFigures> {
  const reads: SeatRead[] = [];
  for (let seed = 1; seed <= games; seed++) reads.push(...(beliefAccuracy(await play(seed, houseSeats(PLAYERS))) ?? []));
  const { town, mafia } = bySide(reads);
  const tops = town.flatMap((r) => r.days.flatMap((d) => (d.topSuspectMafia === null ? [] : [d.topSuspectMafia])));
  const must = (x: number | null) => x ?? Number.NaN;
  const days = (side: readonly SeatRead[]) => side.reduce((n, r) => n + r.days.length, 0);
  return {
    games,
    townSeatDays: days(town),
    mafiaSeatDays: days(mafia),
    brierTown: must(meanOverDays(town, (d) => d.brier)),
    brierTownUniform: must(meanOverDays(town, (d) => d.priorBrier)),
    topSuspectRightTown: tops.filter(Boolean).length / tops.length,
    brierMafia: must(meanOverDays(mafia, (d) => d.brier)),
    brierMafiaPrior: must(meanOverDays(mafia, (d) => d.priorBrier)),
  };
}
