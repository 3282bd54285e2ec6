import type { Change, GameError, GameEvent, GameState } from '../game/index.ts';
import * as engine from '../game/index.ts';
import { err, ok, type Result } from '../result.ts';
import type { Timers } from '../clock.ts';

/** Refusals that come from the session rather than the rules. */
export interface SessionError {
  readonly code: 'conflict' | 'closed';
  readonly message: string;
}

export interface SessionDeps {
  /** Persists one command's events with the state they lead to; must finish before anyone is told. */
  save(before: GameState, events: readonly GameEvent[], after: GameState): Promise<Result<void, 'conflict' | 'not_found'>>;
  /** Presenters and AI drivers hear every accepted change, in order, after it is stored. */
  publish(events: readonly GameEvent[], state: GameState): void;
  /** Told when a phase deadline draws near (ms left), for reminders. */
  remind?(state: GameState, msLeft: number): void;
  timers: Timers;
  /** Reminders this long before each deadline (ms). */
  reminders?: readonly number[];
}

export type GameCommand = (state: GameState, at: number) => Result<Change, GameError>;

/**
 * One running game: the single writer of its state. Commands run one at a time; an accepted
 * command is stored, then published, then the phase deadline and reminders are re-armed.
 * A refused command changes nothing and is told to its sender only.
 */
export class GameSession {
  private queue: Promise<unknown> = Promise.resolve();
  private cancelTimers: (() => void)[] = [];
  private closed = false;
  private submitted = 0;
  private armedFor = '';

  constructor(
    private current: GameState,
    private readonly deps: SessionDeps,
  ) {}

  get state(): GameState {
    return this.current;
  }

  get id(): string {
    return this.current.id;
  }

  /** Arms the deadline of the phase the game is in (at creation, and when a stored game is resumed). */
  open(): void {
    this.armTimers();
  }

  /** Stops the timers; the game stays stored and can be resumed by another process. */
  close(): void {
    this.closed = true;
    this.disarm();
  }

  submit(command: GameCommand): Promise<Result<Change, GameError | SessionError>> {
    this.submitted++;
    const run = this.queue.then(() => this.apply(command));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Commands submitted so far (a headless runner compares it to see whether anything is still moving). */
  get submissions(): number {
    return this.submitted;
  }

  /** Resolves once every command submitted so far has been applied or refused. */
  async settled(): Promise<void> {
    let queue: Promise<unknown>;
    do {
      queue = this.queue;
      await queue;
    } while (queue !== this.queue);
  }

  private async apply(command: GameCommand): Promise<Result<Change, GameError | SessionError>> {
    if (this.closed) return err({ code: 'closed', message: 'This game is shutting down; try again in a moment.' });
    const before = this.current;
    const result = command(before, this.deps.timers.now());
    if (!result.ok || result.value.events.length === 0) return result;
    const { state, events } = result.value;
    const saved = await this.deps.save(before, events, state);
    if (!saved.ok) {
      return err({ code: 'conflict', message: 'The game changed somewhere else at the same moment; nothing was done, please try again.' });
    }
    this.current = state;
    this.armTimers();
    this.deps.publish(events, state);
    return result;
  }

  private disarm(): void {
    for (const cancel of this.cancelTimers) cancel();
    this.cancelTimers = [];
  }

  private armTimers(): void {
    const { deadline, phase } = this.current;
    // Most commands leave the phase and its deadline as they were: the timers stand.
    const armedFor = `${phase}:${this.current.day}:${deadline}`;
    if (armedFor === this.armedFor && this.cancelTimers.length > 0) return;
    this.armedFor = armedFor;
    this.disarm();
    if (deadline === null || phase === 'ended' || this.closed) return;
    const day = this.current.day;
    this.cancelTimers.push(
      this.deps.timers.at(deadline, () => {
        // Only the phase this timer was set for may be advanced by it.
        void this.submit((state, at) =>
          state.phase === phase && state.day === day ? engine.advance(state, { at: Math.max(at, deadline) }) : noChange(state),
        );
      }),
    );
    for (const before of this.deps.reminders ?? []) {
      const when = deadline - before;
      if (when <= this.deps.timers.now()) continue;
      this.cancelTimers.push(this.deps.timers.at(when, () => this.deps.remind?.(this.current, before)));
    }
  }
}

function noChange(state: GameState): Result<Change, GameError> {
  return ok({ state, events: [] });
}
