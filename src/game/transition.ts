import { ok, type Result } from '../result.ts';
import type { EventBody, GameEvent, Visibility } from './events.ts';
import { PUBLIC } from './events.ts';
import { appendedEvent } from './fold.ts';
import type { Change, GameError } from './errors.ts';
import type { GameState } from './state.ts';

/** Inside `chained`: the log the last transition grew, which the next one may go on growing. */
let chain: { log: GameEvent[] | null } | null = null;

/**
 * Runs commands that apply one after another, each to the state the one before returned, of
 * which only the last is kept (a seat's words, move and reasoning): the log is copied once for
 * all of them, each going on with the copy the one before grew. A command given another state
 * (the first one) copies it as usual. Only for callers that keep every accepted command's result
 * as the next one's input: a state handed on here must not be used once a later command has
 * gone on from it. (A refused command emits nothing, so it grows nothing.)
 */
export function chained<T>(run: () => T): T {
  const outer = chain;
  chain = { log: null };
  try {
    return run();
  } finally {
    chain = outer;
  }
}

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
    if (this.log === null) {
      this.log = chain?.log && chain.log === this.state.log ? chain.log : this.state.log.slice();
      if (chain) chain.log = this.log;
    }
    this.log.push(event);
    this.state = appendedEvent(this.state, event, this.log);
    this.events.push(event);
  }

  done(): Result<Change, GameError> {
    return ok({ state: this.state, events: this.events });
  }
}
