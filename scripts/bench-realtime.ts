/**
 * AI seats in real time at real latency: games of 4 AI seats and 3 people with the default timers,
 * against a model whose latency has a median of 4 s and a 95th percentile of 30 s, that never
 * answers 5 % of calls and answers 429 to 3 %. Played on a manual clock, so it takes seconds.
 */
import { movesReport } from './lib/moves-report.ts';
import { playRealtime } from './lib/realtime-game.ts';
import { realisticBehaviour, seededRandom } from './lib/simulated-model.ts';

export const REALTIME_SHAPE = { p50Ms: 4000, p95Ms: 30_000, hangShare: 0.05, rateLimitShare: 0.03, retryAfterMs: 2000 } as const;

export interface RealtimeFigures {
  readonly games: number;
  readonly movesDue: number;
  readonly movesMissed: number;
  readonly fallbackShare: number;
  readonly overrunMsMax: number;
  readonly wallMs: number;
  readonly missed: readonly string[];
}

export async function benchRealtime(games = 20): Promise<RealtimeFigures> {
  const started = performance.now();
  let due = 0;
  let decisions = 0;
  let fallbacks = 0;
  let overrun = 0;
  const missed: string[] = [];
  for (let seed = 1; seed <= games; seed++) {
    const random = seededRandom(seed);
    const state = await playRealtime({ seed, aiSeats: 4, people: 3, random, behaviour: realisticBehaviour(random, REALTIME_SHAPE) });
    const report = movesReport(state);
    due += report.due;
    decisions += report.decisions;
    fallbacks += report.fallbacks;
    overrun = Math.max(overrun, report.overrunMsMax);
    missed.push(...report.missed.map((m) => `game ${seed}: ${m}`));
  }
  return {
    games,
    movesDue: due,
    movesMissed: missed.length,
    fallbackShare: decisions === 0 ? 0 : fallbacks / decisions,
    overrunMsMax: overrun,
    wallMs: performance.now() - started,
    missed,
  };
}
