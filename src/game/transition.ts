import { ok, type Result } from '../result.ts';
import type { EventBody, GameEvent, Visibility } from './events.ts';
import { PUBLIC } from './events.ts';
import { applyEvent } from './fold.ts';
import type { Change, GameError } from './errors.ts';
import type { GameState } from './state.ts';

/**
 * Collects the events of one command, applying each at once so that later
 * steps (night resolution, win checks) see the state the earlier ones made.
 */
export class Transition {
  readonly events: GameEvent[] = [];

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
    this.state = applyEvent(this.state, event);
    this.events.push(event);
  }

  done(): Result<Change, GameError> {
    return ok({ state: this.state, events: this.events });
  }
}
