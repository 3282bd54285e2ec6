import type { GameState, PlayerId, RoleId } from '../../game/index.ts';
import type { Decision } from '../decision.ts';

/** The role the seat guessed for each seated player it had a guess on: what the director's cut and the replay show beside its suspicions. */
export function roleGuessesOf(beliefs: Decision['beliefs'], state: GameState): Record<PlayerId, RoleId> {
  const out: Record<PlayerId, RoleId> = {};
  for (const p of state.players) {
    const guess = beliefs[p.id]?.roleGuess;
    if (guess) out[p.id] = guess;
  }
  return out;
}
