import { fold, type GameEvent, type GameState } from '../../src/game/index.ts';
import { appendedEvent } from '../../src/game/fold.ts';

/**
 * Replays `log` from a blank game, showing `visit` each event with the state just before it, and
 * returns the state it folds to (what `fold(log)` returns). The states are those `applyEvent` would
 * give, but the log grows in one array instead of being copied for each event: linear in a game's
 * length, not quadratic. Read a state only inside its visit: its log array keeps growing after.
 */
export function walkLog(log: readonly GameEvent[], visit: (before: GameState, event: GameEvent) => void): GameState {
  const grown: GameEvent[] = [];
  let state = fold([]);
  for (const event of log) {
    visit(state, event);
    grown.push(event);
    state = appendedEvent(state, event, grown);
  }
  return state;
}
