import type { DecisionTiming } from '../ai-seats.ts';

/**
 * A model's decision in flight: aborted at its deadline, or when its phase has passed, or when the
 * game ends. Its AbortController is made only if someone asks for the signal.
 * It is the decision's timing too: a literal with a getter is built slowly.
 */
export class Task implements DecisionTiming {
  private controller: AbortController | null = null;
  /** Why it was aborted: only a deadline leaves a stand-in move worth submitting. */
  abortedBy: 'deadline' | 'stale' | 'stop' | null = null;

  constructor(
    /** The phase it is for; null for work that outlives a phase (a day's recap). */
    readonly key: string | null,
    readonly playerId: string | null,
    /** Last words are spoken by the dead: that seat's death never cancels them. */
    readonly speaksDead = false,
    /** When the decision is due (epoch ms on the clock); none for untimed seats. */
    readonly deadline?: number,
    /** The bot came back after it was due: the offline brain stands in at once. */
    readonly restarted = false,
  ) {}

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.abortedBy) this.controller.abort();
    }
    return this.controller.signal;
  }

  abort(why: NonNullable<Task['abortedBy']>): void {
    if (this.abortedBy) return;
    this.abortedBy = why;
    this.controller?.abort();
  }
}

export const noop = (): void => undefined;

/** A pause between speeches: woken by the clock (true) or when the driver stops (false). A class, not closures: one is made per speech. */
export class Pause {
  cancel: () => void = noop;

  constructor(
    private readonly pauses: Set<Pause>,
    private readonly resolve: (completed: boolean) => void,
  ) {}

  wake(completed: boolean): void {
    this.pauses.delete(this);
    this.cancel();
    this.resolve(completed);
  }
}
