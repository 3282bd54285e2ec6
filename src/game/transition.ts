import { ok, type Result } from '../result.ts';
import type { EventBody, GameEvent, Visibility } from './events.ts';
import { PUBLIC } from './events.ts';
import { appendEvent } from './fold.ts';
import type { Change, GameError } from './errors.ts';
import type { GameState } from './state.ts';

/**
 * Collects the events of one command, applying each at once so that later
 * steps (night resolution, win checks) see the state the earlier ones made.
 */
export class Transition {
  readonly events: GameEvent[] = [];
  /**
   * The log of `state` once this transition has emitted: copied from the starting state's at the
   * first event and grown in place after, so a command copies the log once, not once per event.
   * The states in between share it; only the last one is ever handed out.
   */
  private log: GameEvent[] | null = null;

  constructor(
    public state: GameState,
    readonly at: number,
  ) {}

  emit(body: EventBody, visibility: Visibility = PUBLIC): void {
    const event = {
      type: body.type,
      payload: body.payload,
      seq: this.state.log.length + 1,
      at: this.at,
      visibility,
    } as GameEvent;
    this.log ??= this.state.log.slice();
    this.state = appendEvent(this.state, event, this.log);
    this.events.push(event);
  }

  done(): Result<Change, GameError> {
    return ok({ state: this.state, events: this.events });
  }
}
