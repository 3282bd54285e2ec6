import { skill } from '../../src/report/ratings.ts';
import type { ArenaResult, ArenaRow } from './arena.ts';

/** Town's share of the games: how far the sides were from even, which the ratings do not model. */
export function townWinRate(result: ArenaResult): number {
  return result.games === 0 ? 0 : (result.outcomes['town win'] ?? 0) / result.games;
}

const rating = (row: ArenaRow) => ({
  name: row.key,
  mu: row.rating.mu,
  sigma: row.rating.sigma,
  skill: skill(row.rating),
  games: row.games,
});

/** What `npm run arena -- --json FILE` writes: the games, Town's win rate and every rating, best first. */
export function arenaFigures(result: ArenaResult) {
  return {
    games: result.games,
    seats: result.seats,
    seeds: result.seeds,
    outcomes: result.outcomes,
    townWinRate: townWinRate(result),
    ratings: { personas: result.byPersona.map(rating), models: result.byModel.map(rating) },
  };
}
