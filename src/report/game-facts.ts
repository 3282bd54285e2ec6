import { getRole, type Faction, type GameState, type PlayerState } from '../game/index.ts';

/**
 * What both pictures read off a finished game. Days are the engine's cycles: night d comes first,
 * then dawn, day, vote and last words of day d; night d+1 begins the next. Cycle 0 is the lobby.
 */

/** The player's true side, known once the game has ended; null for a seat never dealt a role. */
export function factionOf(player: PlayerState): Faction | null {
  return player.role ? getRole(player.role).faction : null;
}

/** The days (cycles) the game reached, from 1. */
export function daysPlayed(state: GameState): number[] {
  return Array.from({ length: state.day }, (_, i) => i + 1);
}

/** Alive when day `day` ended (or the game did, during it). */
export function aliveAfter(player: PlayerState, day: number): boolean {
  return player.death === null || player.death.day > day;
}

/** Dead before day `day` dawned: on an earlier day, or killed in its night (the lynched of that day is not). */
export function deadBefore(player: PlayerState, day: number): boolean {
  const death = player.death;
  return death !== null && (death.day < day || (death.day === day && (death.cause === 'mafia' || death.cause === 'vigilante')));
}

/** The players in seat order. */
export function bySeat(state: GameState): PlayerState[] {
  return [...state.players].sort((a, b) => a.seat - b.seat);
}

/** Why a day had no vote: the game ended (or was stopped) before it, in words for a panel title. */
export function whyNoVote(state: GameState, day: number): string {
  if (state.outcome?.kind === 'cancelled') return 'the game was cancelled first';
  const end = state.log.findIndex((e) => e.type === 'game_ended');
  const before = end < 0 ? state.log : state.log.slice(0, end);
  const phase = before.findLast((e) => e.type === 'phase_started');
  if (phase?.type === 'phase_started' && (phase.payload.phase === 'night' || phase.payload.phase === 'dawn'))
    return `the game ended at night ${day}`;
  return 'the game ended before the vote';
}

/** Who won, in one sentence. */
export function outcomeLine(state: GameState): string {
  const outcome = state.outcome;
  if (!outcome) return 'The game did not finish.';
  const jesters = state.jesterWinners.length > 0 ? ' A Jester won too, by being lynched.' : '';
  switch (outcome.kind) {
    case 'win':
      return `${outcome.faction === 'town' ? 'The Town' : 'The Mafia'} won on day ${state.day}.${jesters}`;
    case 'draw':
      return `A draw on day ${state.day}.${jesters}`;
    case 'cancelled':
      return `Cancelled on day ${state.day}.`;
  }
}
