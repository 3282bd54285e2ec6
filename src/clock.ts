/** Time as the session sees it: injected, so tests (and the demo) can run on a virtual clock. */
export interface Timers {
  now(): number;
  /** Calls `fn` at epoch ms `at` (at once if that has passed); returns a cancel function. */
  at(at: number, fn: () => void): () => void;
}

/** The real clock. Long waits are split, since Node's timers overflow past about 24.8 days. */
export const realTimers: Timers = {
  now: () => Date.now(),
  at(at, fn) {
    let handle: NodeJS.Timeout;
    const arm = () => {
      const wait = Math.max(0, at - Date.now());
      handle = setTimeout(wait > 2 ** 31 - 1 ? arm : fn, Math.min(wait, 2 ** 31 - 1));
    };
    arm();
    return () => clearTimeout(handle);
  },
};

/** A clock that moves only when told to; timers fire in time order as it passes them. */
export class ManualTimers implements Timers {
  private time: number;
  private readonly pending: { at: number; fn: () => void; id: number }[] = [];
  private nextId = 0;

  constructor(start: number) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  at(at: number, fn: () => void): () => void {
    const id = this.nextId++;
    this.pending.push({ at, fn, id });
    return () => this.remove(id);
  }

  private remove(id: number): void {
    const pending = this.pending;
    for (let i = 0; i < pending.length; i++)
      if ((pending[i] as { id: number }).id === id) {
        pending.splice(i, 1);
        return;
      }
  }

  /** Moves the clock to `to`, firing every timer due on the way, earliest first (in the order set, at the same time). */
  advanceTo(to: number): void {
    for (;;) {
      // Timers are kept in the order they were set: the first of the earliest is the one due.
      let due: { at: number; fn: () => void; id: number } | undefined;
      for (const p of this.pending) if (p.at <= to && (due === undefined || p.at < due.at)) due = p;
      if (!due) break;
      this.remove(due.id);
      this.time = Math.max(this.time, due.at);
      due.fn();
    }
    this.time = Math.max(this.time, to);
  }

  /** Moves the clock to the earliest pending timer and fires what is due then; false when nothing is pending. */
  fireNext(): boolean {
    let next = Number.POSITIVE_INFINITY;
    for (const p of this.pending) next = Math.min(next, p.at);
    if (next === Number.POSITIVE_INFINITY) return false;
    this.advanceTo(Math.max(next, this.time));
    return true;
  }

  get scheduled(): readonly number[] {
    return this.pending.map((p) => p.at).sort((a, b) => a - b);
  }
}
