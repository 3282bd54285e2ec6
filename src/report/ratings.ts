import { ordinal, rate, rating } from 'openskill';
import { getRole, type GameState, type PlayerId } from '../game/index.ts';

/** A skill estimate of openskill's Weng-Lin model (TrueSkill-like): mean and uncertainty. */
export interface Rating {
  readonly mu: number;
  readonly sigma: number;
}

/** Where everyone starts: mu 25, sigma 25/3. */
export const NEW_RATING: Rating = rating();

/** The conservative estimate leaderboards rank by: mu − 3 sigma (0 for a newcomer). */
export function skill(r: Rating): number {
  return ordinal(r);
}

/** One player's part in a finished game: the side it played on and its place (1 won, 2 did not). */
export interface Placing {
  readonly playerId: PlayerId;
  /** `town`, `mafia`, or `solo:<player>` for a neutral role (the Jester wins alone). */
  readonly side: string;
  readonly place: 1 | 2;
}

/**
 * Who played on which side and who won, for rating; null for a game that did not finish (still
 * running, or called off). A draw places everyone second (a tie), except a Jester who won.
 */
export function placings(state: GameState): Placing[] | null {
  const outcome = state.outcome;
  if (state.phase !== 'ended' || !outcome || outcome.kind === 'cancelled') return null;
  const out: Placing[] = [];
  for (const p of state.players) {
    if (!p.role) continue;
    const faction = getRole(p.role).faction;
    const won = faction === 'neutral' ? state.jesterWinners.includes(p.id) : outcome.kind === 'win' && outcome.faction === faction;
    out.push({ playerId: p.id, side: faction === 'neutral' ? `solo:${p.id}` : faction, place: won ? 1 : 2 });
  }
  return out;
}

/** A placing with who is rated for it: null takes part at a newcomer's rating and keeps nothing (a person who did not opt in). */
export interface RatedPlacing extends Placing {
  readonly subject: string | null;
}

/**
 * A side's stand-in player: its members' mean mu and mean variance. Mafia sides are smaller than the
 * town by design, and openskill sums a team's members, which would make the larger town a 96 %
 * favourite and every Mafia win an upset; padded with stand-ins to the largest side's size, every
 * side is weighed by its members' mean.
 */
function standIn(team: readonly Rating[]): Rating {
  const n = Math.max(1, team.length);
  return { mu: team.reduce((a, r) => a + r.mu, 0) / n, sigma: Math.sqrt(team.reduce((a, r) => a + r.sigma ** 2, 0) / n) };
}

/**
 * One game's rating update, conserved between sides: the sum of mu over the game's seats never
 * moves, so a run of wins by one side cannot drag every rating with it.
 *
 * - Each side is a team of its players' current ratings, smaller sides padded with stand-ins at their
 *   mean, ranked by place; openskill rates the teams.
 * - The stand-ins' updates are dropped, so the seats' mu changes no longer sum to zero (a town win
 *   of five against two, padded to five, adds three updates' worth). What the seats gained and what
 *   they lost are each scaled to the mean of the two: the winners gain exactly what the losers lose,
 *   each seat in proportion to the update openskill gave it (a smaller side's members each taking a
 *   larger share, a newcomer moving faster than a veteran), never against its result.
 * - Sigma is openskill's.
 *
 * Returns the new rating of every subject in the game; a seat without one (null) plays at a
 * newcomer's rating and keeps nothing. A subject seated more than once (two seats of one model in an
 * arena) takes the mean of its seats' updated ratings: one game is one result for it.
 */
export function rateGame(current: (subject: string) => Rating | undefined, seats: readonly RatedPlacing[]): Map<string, Rating> {
  const sides = [...new Set(seats.map((s) => s.side))].map((side) => seats.filter((s) => s.side === side));
  const before = sides.map((team) => team.map((s) => (s.subject === null ? NEW_RATING : (current(s.subject) ?? NEW_RATING))));
  const size = Math.max(...sides.map((team) => team.length));
  const teams = before.map((ratings) => [...ratings, ...Array.from({ length: size - ratings.length }, () => standIn(ratings))]);
  const rank = sides.map((team) => team[0]?.place ?? 2);
  const rated = sides.length > 1 ? rate(teams, { rank }) : teams;
  const moved = sides.flatMap((team, t) =>
    team.map((seat, i) => {
      const was = before[t]?.[i] ?? NEW_RATING;
      return { seat, was, now: rated[t]?.[i] ?? was };
    }),
  );
  const gained = moved.reduce((a, m) => a + Math.max(0, m.now.mu - m.was.mu), 0);
  const lost = moved.reduce((a, m) => a + Math.max(0, m.was.mu - m.now.mu), 0);
  // Gains and losses scaled to one pot; with nothing on one side there is nothing to trade.
  const pot = gained > 0 && lost > 0 ? (gained + lost) / 2 : 0;
  const updates = new Map<string, Rating[]>();
  for (const { seat, was, now } of moved) {
    if (seat.subject === null) continue;
    const change = now.mu - was.mu;
    const share = change === 0 ? 0 : (change * pot) / (change > 0 ? gained : lost);
    updates.set(seat.subject, [...(updates.get(seat.subject) ?? []), { mu: was.mu + share, sigma: now.sigma }]);
  }
  const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return new Map([...updates].map(([subject, rs]) => [subject, { mu: mean(rs.map((r) => r.mu)), sigma: mean(rs.map((r) => r.sigma)) }]));
}
