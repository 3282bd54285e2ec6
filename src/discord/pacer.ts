import type { Timers } from '../clock.ts';

/**
 * Paces something done again and again (editing a message kept current, a typing indicator):
 * at most once per interval on the game's clock, per key. What is asked meanwhile is folded into
 * one later run, the latest asked; a final run goes at once and drops the pending one.
 */
export class Pacer {
  private readonly last = new Map<string, number>();
  private readonly pending = new Map<string, { run: () => void; cancel: () => void }>();

  constructor(
    private readonly timers: Timers,
    private readonly intervalMs: number,
  ) {}

  /** True (and counted as run now) when the key may run now; else false, and nothing is recorded. */
  now(key: string): boolean {
    const last = this.last.get(key);
    if (last !== undefined && this.timers.now() < last + this.intervalMs) return false;
    this.ran(key);
    return true;
  }

  /** Runs at once, whatever the interval (a final state, something people wait for), and drops the pending run. */
  ran(key: string): void {
    this.pending.get(key)?.cancel();
    this.pending.delete(key);
    this.last.set(key, this.timers.now());
  }

  /** `run` once the interval since the last run has passed; a later call before then replaces it. */
  later(key: string, run: () => void): void {
    const pending = this.pending.get(key);
    if (pending) {
      pending.run = run;
      return;
    }
    const entry: { run: () => void; cancel: () => void } = { run, cancel: () => undefined };
    entry.cancel = this.timers.at((this.last.get(key) ?? this.timers.now()) + this.intervalMs, () => {
      this.pending.delete(key);
      this.last.set(key, this.timers.now());
      entry.run();
    });
    this.pending.set(key, entry);
  }

  /** Keys remembered (run lately or pending). */
  get size(): number {
    return new Set([...this.last.keys(), ...this.pending.keys()]).size;
  }

  /** Forgets the key: its pending run is dropped (the message is gone, the game over). */
  forget(key: string): void {
    this.pending.get(key)?.cancel();
    this.pending.delete(key);
    this.last.delete(key);
  }
}
