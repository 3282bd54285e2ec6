/** A slow Discord on demand: matching REST calls wait, unanswered, until the test lets them through. */

export interface HoldSpec {
  method?: string;
  /** A route pattern (`/applications/:applicationId/commands`) or a RegExp on the path. */
  route: string | RegExp;
}

/** What a test holds: how many calls wait now, and the release that answers them (and lets later ones through). */
export interface Held {
  readonly waiting: number;
  release(): void;
}

interface ActiveHold {
  readonly spec: HoldSpec;
  waiting: number;
  readonly released: Promise<void>;
}

export class Holds {
  private readonly active = new Set<ActiveHold>();

  constructor(private readonly changed: () => void) {}

  add(spec: HoldSpec): Held {
    let release!: () => void;
    const hold: ActiveHold = { spec, waiting: 0, released: new Promise<void>((resolve) => (release = resolve)) };
    this.active.add(hold);
    return {
      get waiting() {
        return hold.waiting;
      },
      release: () => {
        this.active.delete(hold);
        release();
      },
    };
  }

  /** Resolves once no hold matches the call (at once when none does); the call is then answered as usual. */
  async wait(method: string, path: string, pattern: string): Promise<void> {
    for (const hold of this.active) {
      const { spec } = hold;
      if (spec.method !== undefined && spec.method !== method) continue;
      if (typeof spec.route === 'string' ? spec.route !== pattern : !spec.route.test(path)) continue;
      hold.waiting++;
      this.changed();
      await hold.released;
      hold.waiting--;
    }
  }
}
