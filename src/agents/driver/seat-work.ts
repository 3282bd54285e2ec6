import type { Timers } from '../../clock.ts';
import type { Result } from '../../result.ts';
import * as engine from '../../game/index.ts';
import type { GameState, PlayerState, ReasoningOutcome } from '../../game/index.ts';
import type { Decision, DecisionKind, Fallback } from '../decision.ts';
import type { AiSeats } from '../ai-seats.ts';
import type { Summarizer } from '../summary.ts';
import { votingBlocsOf } from '../voting-blocs.ts';
import { roleGuessesOf } from './belief-record.ts';
import { phaseKey, type PhaseMoment } from './deadlines.ts';
import { BUDGET_NOTICE, BUDGET_TOPIC, fallbackNotice, fallbackTopic, modelTopic, modelUnavailableNotice } from './notices.ts';
import { describeDecision } from './reasoning-label.ts';
import { sequence, type Command, type Step } from './sequence.ts';
import { noop, Pause, Task } from './task.ts';

/**
 * The game as the driver sees it: its current state, and one way in for commands (a GameSession).
 * A command is decided and applied at once (it is stored and published behind); the driver asks
 * only whether it went in, so what it gets back is left open.
 */
export interface DriverGame {
  readonly state: GameState;
  apply(command: Command): Result<unknown, unknown>;
}

export interface AiDriverOptions {
  /** The game's clock: deadlines, pauses between speeches and model timeouts are read on it. */
  readonly clock: Timers;
  /** Pause after an AI speech, so people can read and answer (ms); 0 for none. */
  readonly speechGapMs: number;
  readonly maxSpeechesPerDay?: number;
  /** The longest a seat may think over one speech before it speaks on instinct (ms). Default 40 s. */
  readonly speechTurnMs?: number;
  readonly summarizer?: Summarizer;
  /** Keep each decision's private reasoning for the director's cut. Default true. */
  readonly recordReasoning?: boolean;
  /** A seat started or finished waiting for its model (a typing indicator; the offline brain answers at once). */
  readonly thinking?: (playerId: string, busy: boolean) => void;
  /** A seat's model failed it: the provider's own words, for the log only. */
  readonly onFallback?: (player: PlayerState, kind: DecisionKind, fallback: Fallback) => void;
  /** Work that failed unexpectedly (a bug): for the log. */
  readonly onError?: (error: unknown) => void;
  /**
   * Models answer with no deadline: for headless games whose clock stands still while a model
   * thinks (the demo, games against a wire fake). Players' games are always timed.
   */
  readonly untimed?: boolean;
}

/** A decision: at once from a seat's offline brain, later from a model; null when no longer wanted. */
export type Decided = Decision | null | Promise<Decision | null>;

/** Runs `then` on a decision at once when there is no model to wait for: an offline seat's move costs no promise. */
export function whenDecided(decided: Decided, then: (decision: Decision) => void): Promise<void> | null {
  if (decided instanceof Promise) return decided.then((d) => (d ? then(d) : undefined));
  if (decided) then(decided);
  return null;
}

/**
 * What every phase's moves share: the game, the seats and how they are asked, and the driver's
 * bookkeeping of the work in flight (decisions, jobs, pauses), which its runner waits on.
 */
export class SeatWork {
  private readonly tasks = new Set<Task>();
  private readonly jobs = new Set<Promise<void>>();
  /** Pauses between speeches, ended early (false) when the driver stops. */
  private readonly pauses = new Set<Pause>();
  private quietWaiters: (() => void)[] = [];
  private parkedWaiters: (() => void)[] = [];
  private ended = false;
  /** The phase a restart found past its moves' due time (phaseKey), whose owed moves are stand-ins placed at once. */
  lateKey: string | null = null;
  /** A seat's name as the game has it now (its id if it has none): one closure for the driver, not one per decision. */
  private readonly nameOf = (id: string): string => engine.findPlayer(this.game.state, id)?.name ?? id;

  constructor(
    readonly game: DriverGame,
    readonly seats: AiSeats,
    readonly options: AiDriverOptions,
  ) {}

  get state(): GameState {
    return this.game.state;
  }

  get stopped(): boolean {
    return this.ended;
  }

  stop(): void {
    if (this.ended) return;
    this.ended = true;
    for (const pause of [...this.pauses]) pause.wake(false);
    this.abort(() => true, 'stop');
  }

  /** The living (or all, by the filter) AI seats. */
  ai(filter: (p: PlayerState) => boolean): PlayerState[] {
    // A loop, not filter with a closure: the discussion asks before every speech.
    const out: PlayerState[] = [];
    for (const p of this.game.state.players) if (filter(p) && this.seats.has(p.id)) out.push(p);
    return out;
  }

  abort(which: (task: Task) => boolean, why: NonNullable<Task['abortedBy']>): void {
    for (const task of this.tasks) if (which(task)) task.abort(why);
  }

  // ── Work in flight ─────────────────────────────────────────────────────────────────────

  async idle(): Promise<void> {
    while (this.jobs.size > 0) await Promise.allSettled([...this.jobs]);
  }

  quiet(): Promise<void> {
    if (this.tasks.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.quietWaiters.push(resolve));
  }

  get pending(): number {
    return this.tasks.size;
  }

  get busy(): boolean {
    return this.jobs.size > this.pauses.size;
  }

  parked(): Promise<void> {
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => this.parkedWaiters.push(resolve));
  }

  private wakeParked(): void {
    if (!this.busy && this.parkedWaiters.length > 0) for (const resolve of this.parkedWaiters.splice(0)) resolve();
  }

  private untrack(task: Task): void {
    this.tasks.delete(task);
    if (this.tasks.size === 0 && this.quietWaiters.length > 0) for (const resolve of this.quietWaiters.splice(0)) resolve();
  }

  job(work: Promise<void> | null): void {
    if (work) void this.tracked(work);
  }

  /** Tracks the work until it is done (idle waits for it); the promise returned settles then and never rejects. */
  tracked(work: Promise<void>): Promise<void> {
    // One reaction rather than catch and finally: a game starts a few hundred jobs.
    const tracked: Promise<void> = work.then(
      () => {
        this.jobs.delete(tracked);
        this.wakeParked();
      },
      (error: unknown) => {
        this.jobs.delete(tracked);
        this.wakeParked();
        this.options.onError?.(error);
      },
    );
    this.jobs.add(tracked);
    return tracked;
  }

  /** Waits on the game's clock; false when the driver stopped first. */
  pause(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const pause = new Pause(this.pauses, resolve);
      pause.cancel = this.options.clock.at(this.options.clock.now() + ms, () => pause.wake(true));
      this.pauses.add(pause);
      this.wakeParked();
    });
  }

  // ── Decisions ──────────────────────────────────────────────────────────────────────────

  /** Applies a command at once; false when refused (or the driver stopped). */
  apply(command: Command): boolean {
    return !this.stopped && this.game.apply(command).ok;
  }

  /**
   * Asks a seat for a decision due at `due` (epoch ms on the clock): at once from an offline brain,
   * or a promise for a model's. Null when the answer is no longer wanted: its phase passed or the
   * game ended while it thought.
   */
  decide(player: PlayerState, kind: DecisionKind, due: number, key: string | null = phaseKey(this.game.state)): Decided {
    if (this.stopped) return null;
    if (!this.seats.answersAtOnce(player.id)) return this.askModel(player, kind, due, key);
    // No Task, timer or promise: nothing can abort an answer that is already there. Nor a typing
    // indicator: nothing is being composed (it costs a REST call for no one to see).
    const decision = this.seats.decide(this.game.state, player, kind) as Decision;
    this.job(this.seats.takeSave());
    return decision;
  }

  private async askModel(player: PlayerState, kind: DecisionKind, due: number, key: string | null): Promise<Decision | null> {
    const timed = !this.options.untimed;
    const late = timed && due <= this.options.clock.now();
    const task = new Task(key, player.id, kind === 'last_words', timed ? due : undefined, late && key === this.lateKey);
    // A restart late in a phase may leave no time: the offline brain decides at once.
    if (late) task.abort('deadline');
    const cancel = timed ? this.options.clock.at(due, () => task.abort('deadline')) : noop;
    this.tasks.add(task);
    this.options.thinking?.(player.id, true);
    try {
      const decision = await this.seats.decide(this.game.state, player, kind, task);
      // stop() may have run during the await; a deadline abort before it leaves abortedBy at 'deadline'.
      if (task.abortedBy === 'stale' || task.abortedBy === 'stop' || this.stopped) return null;
      if (decision.fallback) this.fellBack(player, kind, decision.fallback);
      return decision;
    } finally {
      cancel();
      this.untrack(task);
      this.options.thinking?.(player.id, false);
    }
  }

  /** A day's recap by the model, or the offline one when it fails or runs out of time. */
  async recapByModel(summarizer: Summarizer, record: Parameters<Summarizer>[0], deadline: number, offline: () => string): Promise<string> {
    const task = new Task(null, null);
    const timed = !this.options.untimed;
    const cancel = timed ? this.options.clock.at(deadline, () => task.abort('deadline')) : noop;
    this.tasks.add(task);
    try {
      return await summarizer(record, { signal: task.signal, ...(timed && { deadline }) });
    } catch {
      return offline();
    } finally {
      cancel();
      this.untrack(task);
    }
  }

  /** Tells the table once per seat (once for the budget, once per gone model) and the log every time. */
  private fellBack(player: PlayerState, kind: DecisionKind, fallback: Fallback): void {
    this.options.onFallback?.(player, kind, fallback);
    const { category, model } = fallback;
    // The bot's own absence, not the model's failing: nothing to tell the table.
    if (category === 'restart') return;
    if (category === 'budget_spent') this.apply((s, at) => engine.announce(s, { text: BUDGET_NOTICE, topic: BUDGET_TOPIC, at }));
    else if (category === 'model_unavailable' && model)
      this.apply((s, at) =>
        engine.announce(s, { text: modelUnavailableNotice(player.name, model), topic: modelTopic(player.id, model), at }),
      );
    else this.apply((s, at) => engine.announce(s, { text: fallbackNotice(player.name, category), topic: fallbackTopic(player.id), at }));
  }

  /** The command keeping the decision's reasoning for the director's cut, under the phase it was for, with what became of it. */
  private reasoning(
    player: PlayerState,
    kind: DecisionKind,
    decision: Decision,
    forState: PhaseMoment,
    outcome: ReasoningOutcome,
  ): Command | null {
    if (this.options.recordReasoning === false) return null;
    const label = describeDecision(kind, decision, this.nameOf);
    return (s, at) =>
      engine.recordReasoning(s, {
        playerId: player.id,
        decision: label,
        text: decision.reasoning,
        at,
        phase: forState.phase,
        day: forState.day,
        outcome,
        fallback: decision.fallback?.category,
        suspicion: suspicionOf(decision.beliefs, this.game.state),
        roleGuesses: roleGuessesOf(decision.beliefs, this.game.state),
        blocs: votingBlocsOf({ events: this.game.state.log }),
        tools: decision.toolCalls,
      });
  }

  /**
   * Applies a decision as one command: its words first (if any; they may be refused alone), the
   * move (what counts; none for a speech), what may come with them (a nomination), then its
   * reasoning. A refused move is kept as refused or late. True when the move went in.
   */
  play(
    player: PlayerState,
    kind: DecisionKind,
    decision: Decision,
    forState: PhaseMoment,
    move: Command | null,
    said?: Command | null,
    also?: Command | null,
  ): boolean {
    const counted = this.reasoning(player, kind, decision, forState, 'counted');
    const steps: Step[] = [];
    if (said) steps.push({ command: said, required: move === null });
    if (move) steps.push({ command: move, required: true });
    // What comes with the words but may be refused alone (a nomination the day has no room for).
    if (also) steps.push({ command: also, required: false });
    if (counted) steps.push({ command: counted, required: false });
    if (steps.length === 0) return true;
    if (this.apply(sequence(steps))) return true;
    const refused = this.reasoning(player, kind, decision, forState, this.refusal(phaseKey(forState)));
    if (refused) this.apply(refused);
    return false;
  }

  /** What became of a move the engine refused: the phase had passed, or the rules said no. */
  private refusal(key: string): ReasoningOutcome {
    return phaseKey(this.game.state) === key ? 'refused' : 'late';
  }
}

/** The seat's suspicion of each seated player, clamped and rounded to what a picture or a score needs. */
function suspicionOf(beliefs: Decision['beliefs'], state: GameState): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of state.players) {
    const belief = beliefs[p.id];
    if (belief) out[p.id] = Math.round(Math.min(1, Math.max(0, belief.suspicion)) * 1000) / 1000;
  }
  return out;
}
