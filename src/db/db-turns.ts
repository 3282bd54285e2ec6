import { isUrgent } from './db-priority.ts';

/**
 * One operation at a time (PGlite runs one anyway): urgent ones (`urgently`) first, then the rest
 * in the order asked. The operations run on PGlite's own thread, so none needs a turn of the event
 * loop to itself: each answer already arrives as a message, with whatever else came in between.
 */
export class Turns {
  private busy = false;
  private readonly urgent: (() => void)[] = [];
  private readonly normal: (() => void)[] = [];

  async enter(): Promise<void> {
    if (!this.busy) {
      this.busy = true;
      return;
    }
    await new Promise<void>((resolve) => (isUrgent() ? this.urgent : this.normal).push(resolve));
  }

  leave(): void {
    const next = this.urgent.shift() ?? this.normal.shift();
    if (next) next();
    else this.busy = false;
  }
}
