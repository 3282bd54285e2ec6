import { chained, type Change, type GameError, type GameEvent, type GameState } from '../../game/index.ts';
import { ok, type Result } from '../../result.ts';

export type Command = (state: GameState, at: number) => Result<Change, GameError>;

export interface Step {
  readonly command: Command;
  /** A refused required step refuses the whole; a refused optional one is left out. */
  readonly required: boolean;
}

/**
 * Several engine commands applied one after another as one: a seat's words, its move and its
 * reasoning land together, in one write, with nothing of anyone else's between them.
 */
export function sequence(steps: readonly Step[]): Command {
  // Only the last state is kept: the steps share one copy of the log (engine.chained).
  return (state, at) => chained(() => applySteps(steps, state, at));
}

function applySteps(steps: readonly Step[], state: GameState, at: number): Result<Change, GameError> {
  let current = state;
  const events: GameEvent[] = [];
  for (const step of steps) {
    const result = step.command(current, at);
    if (!result.ok) {
      if (step.required) return result;
      continue;
    }
    current = result.value.state;
    events.push(...result.value.events);
  }
  return ok({ state: current, events });
}
