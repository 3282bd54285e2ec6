import type { ServerResponse } from 'node:http';
import type { Timers } from '../../../src/clock.ts';

interface Held {
  readonly due: number;
  readonly seed: number;
  readonly send: (sent: boolean) => void;
}

/**
 * Answers a fake holds until their time comes on a clock: the model's latency in the game's time.
 * At most one answer goes out per millisecond, the earliest due first (ties by the request's seed),
 * so answers due together reach their callers one after the other, in the same order every run.
 */
export class HeldAnswers {
  readonly #clock: Timers;
  readonly #held = new Set<Held>();
  readonly #listeners = new Set<() => void>();
  #cancel: (() => void) | undefined;
  #lastSent = Number.NEGATIVE_INFINITY;

  constructor(clock: Timers) {
    this.#clock = clock;
  }

  /** Answers waiting for their time. */
  get size(): number {
    return this.#held.size;
  }

  /** Resolves true once the answer's time has come, false if the caller hung up first (nothing is sent then). */
  hold(due: number, seed: number, res: ServerResponse): Promise<boolean> {
    return new Promise((resolve) => {
      const held: Held = { due, seed, send: resolve };
      this.#held.add(held);
      res.once('close', () => {
        if (this.#held.delete(held)) {
          resolve(false);
          this.#changed();
        }
      });
      this.#changed();
    });
  }

  /** Calls `listener` whenever an answer is held or let go; returns how to stop. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #first(): Held | undefined {
    let first: Held | undefined;
    for (const held of this.#held)
      if (first === undefined || held.due < first.due || (held.due === first.due && held.seed < first.seed)) first = held;
    return first;
  }

  #changed(): void {
    this.#cancel?.();
    this.#cancel = undefined;
    const first = this.#first();
    if (first !== undefined) this.#cancel = this.#clock.at(Math.max(first.due, this.#lastSent + 1), () => this.#sendFirst());
    for (const listener of this.#listeners) listener();
  }

  #sendFirst(): void {
    this.#cancel = undefined;
    const now = this.#clock.now();
    const first = this.#first();
    if (first !== undefined && first.due <= now && this.#lastSent < now) {
      this.#held.delete(first);
      this.#lastSent = now;
      first.send(true);
    }
    this.#changed();
  }
}
