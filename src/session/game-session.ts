import type { Change, GameError, GameEvent, GameState } from '../game/index.ts';
import * as engine from '../game/index.ts';
import { err, ok, type Result } from '../result.ts';
import type { Timers } from '../clock.ts';

/** Refusals that come from the session rather than the rules. */
export interface SessionError {
  /** `conflict`: another writer stored first; `unsaved`: the store failed and the change was undone; `closed`: shutting down. */
  readonly code: 'conflict' | 'unsaved' | 'closed';
  readonly message: string;
}

export interface SessionDeps {
  /**
   * Persists one or more commands' events with the state they lead to; must finish before anyone is
   * told. `awaited`: a person is waiting for it (their confirmation is sent once it is stored).
   */
  save(
    before: GameState,
    events: readonly GameEvent[],
    after: GameState,
    how: { readonly awaited: boolean },
  ): Promise<Result<void, 'conflict' | 'not_found'>>;
  /** The game as the store holds it: after a failed write, whether it landed after all (only its answer was lost). */
  load?(): Promise<Result<GameState, unknown>>;
  /** Presenters and AI drivers hear every accepted change, in order, after it is stored. */
  publish(events: readonly GameEvent[], state: GameState): void;
  /** Told when a phase deadline draws near (ms left), for reminders. */
  remind?(state: GameState, msLeft: number): void;
  timers: Timers;
  /** Reminders this long before each deadline (ms). */
  reminders?: readonly number[];
  /**
   * Starts the writes of changes just applied; by default on a microtask. The bot passes
   * setImmediate so that what the caller does next (acknowledging an interaction) goes out first.
   */
  later?(run: () => void): void;
}

export type GameCommand = (state: GameState, at: number) => Result<Change, GameError>;

/** A command the rules accepted, already applied to the game in memory. */
export interface Applied {
  readonly change: Change;
  /** Once stored and published: the change; or why it could not be stored (it was then undone, with every change after it). */
  readonly stored: Promise<Result<Change, SessionError>>;
}

interface Pending {
  readonly change: Change;
  readonly awaited: boolean;
  resolve(result: Result<Change, SessionError>): void;
  reject(error: unknown): void;
}

/** A write that fails for another reason than a conflict is tried this many times before the change is undone. */
const SAVE_ATTEMPTS = 3;
/** After an undo, a deadline already passed is tried again this much later, not at once (the store may still be down). */
const RETRY_AFTER_UNDO_MS = 5000;

const WRITTEN: Result<void, never> = ok(undefined);
const AWAITED = { awaited: true } as const;
const UNAWAITED = { awaited: false } as const;

const CLOSED: SessionError = { code: 'closed', message: 'This game is shutting down; try again in a moment.' };
const CONFLICT: SessionError = {
  code: 'conflict',
  message: 'The game changed somewhere else at the same moment; nothing was done, please try again.',
};
const UNSAVED: SessionError = {
  code: 'unsaved',
  message: 'I could not store that, so it did not count; nothing changed. Please try again.',
};

/**
 * One running game: the single writer of its state. A command is decided and applied in memory at
 * once, in the order submitted, each seeing the last (so a caller can answer straight away); its
 * events are then stored, several commands in one write when they come faster than the store
 * answers, and only then published and the caller's `stored` resolved. A write that fails is
 * retried, then checked against the store; a change that did not land is undone, with every
 * change applied after it (they were decided on top of it), and the game goes on from what is
 * stored. A refused command changes nothing and is told to its sender only.
 */
export class GameSession {
  /** Every accepted change, stored or still being written. */
  private current: GameState;
  /** What the store holds. */
  private saved: GameState;
  private pending: Pending[] = [];
  private flushing: Promise<void> | null = null;
  private cancelTimers: (() => void)[] = [];
  /** Deadlines run only from open() on: a resumed game's owed moves go in before its phase can resolve. */
  private opened = false;
  private closed = false;
  private submitted = 0;
  /** The phase, day and deadline the timers were armed for (null: none). */
  private armedFor: Pick<GameState, 'phase' | 'day' | 'deadline'> | null = null;
  /** After an undo: no deadline fires before this (epoch ms), so a store that is down is not hammered. */
  private notBefore = 0;

  constructor(
    state: GameState,
    private readonly deps: SessionDeps,
  ) {
    this.current = state;
    this.saved = state;
  }

  /** The game with every accepted change, including those still being written. */
  get state(): GameState {
    return this.current;
  }

  /** The game as stored: `state` without the changes still being written. */
  get storedState(): GameState {
    return this.saved;
  }

  get id(): string {
    return this.current.id;
  }

  /**
   * Arms the deadline of the phase the game is in (at creation, and when a stored game is resumed).
   * A deadline that passed while no process ran the game resolves its phase now, after whatever
   * was applied before (a resumed game's stand-in moves).
   */
  open(): void {
    this.opened = true;
    this.armTimers();
    const { deadline, phase, day } = this.current;
    if (deadline !== null && deadline <= this.deps.timers.now()) this.expire(phase, day, deadline);
  }

  /** Stops the timers; changes being written are still stored, and the game can be resumed by another process. */
  close(): void {
    this.closed = true;
    this.disarm();
  }

  /**
   * Decides a command on the game as it stands and applies it at once: a refusal (or nothing to do)
   * changes nothing; an accepted change is what the next command sees, and `stored` says when it
   * is stored and published. `awaited`: a person waits for `stored` (it is then written first).
   */
  apply(command: GameCommand, how: { readonly awaited?: boolean } = {}): Result<Applied, GameError | SessionError> {
    this.submitted++;
    if (this.closed) return err(CLOSED);
    const result = command(this.current, this.deps.timers.now());
    if (!result.ok) return result;
    const change = result.value;
    // Nothing to store: answered once everything before it is stored, as if it had been.
    if (change.events.length === 0) return ok({ change, stored: this.settled().then(() => ok(change)) });
    this.current = change.state;
    const stored = new Promise<Result<Change, SessionError>>((resolve, reject) =>
      this.pending.push({ change, awaited: how.awaited === true, resolve, reject }),
    );
    this.armTimers();
    this.flushLater();
    return ok({ change, stored });
  }

  /** Applies a command and resolves once it is stored and published (or refused, or undone). */
  submit(command: GameCommand): Promise<Result<Change, GameError | SessionError>> {
    // Not an async function: returning `stored` from one costs two more promise jobs per command.
    try {
      const applied = this.apply(command);
      return applied.ok ? applied.value.stored : Promise.resolve(applied);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** Commands submitted so far (a headless runner compares it to see whether anything is still moving). */
  get submissions(): number {
    return this.submitted;
  }

  /** Whether changes are being written (or wait to be). */
  get writing(): boolean {
    return this.flushing !== null;
  }

  /** Resolves once every change applied so far is stored (or undone) and published. */
  async settled(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  private flushLater(): void {
    if (this.flushing) return;
    this.flushing = this.deps.later
      ? new Promise<void>((resolve) => this.deps.later?.(() => void this.flush().finally(resolve)))
      : this.flush(true);
  }

  /** `onMicrotask`: starts after the caller's synchronous work (commands applied meanwhile join this write). */
  private async flush(onMicrotask = false): Promise<void> {
    // A promise job rather than queueMicrotask, which wraps each call in an async resource: same queue, same order.
    if (onMicrotask) await Promise.resolve();
    try {
      while (this.pending.length > 0) {
        const batch = this.pending.splice(0);
        const before = this.saved;
        const after = batch[batch.length - 1]?.change.state ?? before;
        const events = batch.length === 1 ? (batch[0] as Pending).change.events : eventsOf(batch);
        const how = batch.length === 1 ? ((batch[0] as Pending).awaited ? AWAITED : UNAWAITED) : { awaited: batch.some((p) => p.awaited) };
        // The first attempt is awaited here: a store that takes the write at once then costs no more promises.
        let saved: Result<void, 'conflict' | 'not_found'> | undefined;
        try {
          saved = await this.deps.save(before, events, after, how);
        } catch {
          saved = undefined;
        }
        const written = saved?.ok ? WRITTEN : await this.writeAgain(before, events, after, how, saved);
        if (!written.ok) {
          this.undo(written.error, [...batch, ...this.pending.splice(0)]);
          continue;
        }
        this.saved = after;
        for (const p of batch) {
          try {
            this.deps.publish(p.change.events, p.change.state);
            p.resolve(ok(p.change));
          } catch (error) {
            p.reject(error);
          }
        }
      }
    } finally {
      this.flushing = null;
    }
  }

  /**
   * A batch whose first write failed: `first` is the store's refusal, or undefined when it threw. A
   * throw is retried, then the store is checked (a write whose answer was lost may have landed).
   */
  private async writeAgain(
    before: GameState,
    events: readonly GameEvent[],
    after: GameState,
    how: { readonly awaited: boolean },
    first: Result<void, 'conflict' | 'not_found'> | undefined,
  ): Promise<Result<void, { error: SessionError; stored: GameState }>> {
    let error = UNSAVED;
    // Another writer moved the game on: trying again cannot help.
    if (first) error = !first.ok && first.error === 'conflict' ? CONFLICT : UNSAVED;
    else
      for (let attempt = 2; attempt <= SAVE_ATTEMPTS; attempt++) {
        try {
          const saved = await this.deps.save(before, events, after, how);
          if (saved.ok) return ok(undefined);
          error = saved.error === 'conflict' ? CONFLICT : UNSAVED;
          break;
        } catch {
          // A lost connection, a store that is down: tried again; the check below decides.
        }
      }
    const stored = await this.reload();
    if (stored && landed(stored, before, events)) return ok(undefined);
    return err({ error, stored: stored ?? before });
  }

  private async reload(): Promise<GameState | null> {
    try {
      const loaded = await this.deps.load?.();
      return loaded?.ok ? loaded.value : null;
    } catch {
      return null;
    }
  }

  /** The changes that did not land are undone; the game goes on from what the store holds. */
  private undo(failure: { error: SessionError; stored: GameState }, undone: readonly Pending[]): void {
    this.saved = failure.stored;
    this.current = failure.stored;
    this.notBefore = this.deps.timers.now() + RETRY_AFTER_UNDO_MS;
    this.armedFor = null;
    this.armTimers();
    for (const p of undone) p.resolve(err(failure.error));
  }

  /** The deadline of this phase has come: it resolves, unless the game has moved on since. */
  private expire(phase: GameState['phase'], day: number, deadline: number): void {
    void this.submit((state, at) =>
      state.phase === phase && state.day === day ? engine.advance(state, { at: Math.max(at, deadline) }) : noChange(state),
    );
  }

  private disarm(): void {
    for (const cancel of this.cancelTimers) cancel();
    this.cancelTimers = [];
  }

  private armTimers(): void {
    const { deadline, phase, day } = this.current;
    // Most commands leave the phase and its deadline as they were: the timers stand.
    const armed = this.armedFor;
    if (armed?.phase === phase && armed.day === day && armed.deadline === deadline && this.cancelTimers.length > 0) return;
    this.armedFor = { phase, day, deadline };
    this.disarm();
    if (deadline === null || phase === 'ended' || this.closed || !this.opened) return;
    this.cancelTimers.push(this.deps.timers.at(Math.max(deadline, this.notBefore), () => this.expire(phase, day, deadline)));
    for (const before of this.deps.reminders ?? []) {
      const when = deadline - before;
      if (when <= this.deps.timers.now()) continue;
      this.cancelTimers.push(this.deps.timers.at(when, () => this.deps.remind?.(this.current, before)));
    }
  }
}

/** Whether the store already holds exactly these events after `before` (a write that landed though its answer was lost). */
function landed(stored: GameState, before: GameState, events: readonly GameEvent[]): boolean {
  const tail = stored.log.slice(before.log.length);
  return (
    tail.length === events.length &&
    tail.every((e, i) => {
      const mine = events[i];
      return mine !== undefined && e.seq === mine.seq && e.type === mine.type && e.at === mine.at;
    })
  );
}

/** A batch's events in order: a loop, not flatMap, which costs an array per change (a batch of an offline game's moves has several). */
function eventsOf(batch: readonly Pending[]): GameEvent[] {
  const events: GameEvent[] = [];
  for (const p of batch) for (const e of p.change.events) events.push(e);
  return events;
}

function noChange(state: GameState): Result<Change, GameError> {
  return ok({ state, events: [] });
}
