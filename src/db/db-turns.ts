import { setImmediate as nextTurn } from 'node:timers/promises';
import { isUrgent } from './db-priority.ts';

/**
 * One operation at a time (PGlite runs one anyway), each on a turn of the event loop of its own:
 * urgent ones (`urgently`) first, then the rest in the order asked.
 */
export class Turns {
  private busy = false;
  private readonly urgent: (() => void)[] = [];
  private readonly normal: (() => void)[] = [];

  async enter(): Promise<void> {
    if (this.busy) {
      await new Promise<void>((resolve) => (isUrgent() ? this.urgent : this.normal).push(resolve));
      return;
    }
    this.busy = true;
    await nextTurn();
  }

  leave(): void {
    const next = this.urgent.shift() ?? this.normal.shift();
    if (next) setImmediate(next);
    else this.busy = false;
  }
}
