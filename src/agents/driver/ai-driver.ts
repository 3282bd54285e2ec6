import type { Timers } from '../../clock.ts';
import { roleGuessesOf } from './belief-record.ts';
import { votingBlocsOf } from '../voting-blocs.ts';
import { err, must, type Result } from '../../result.ts';
import * as engine from '../../game/index.ts';
import type { GameEvent, GameState, PlayerState, ReasoningOutcome } from '../../game/index.ts';
import type { Decision, DecisionKind, Fallback } from '../decision.ts';
import { nextSpeaker } from '../scheduler.ts';
import type { AiPlayers, DecisionTiming } from '../ai-players.ts';
import { dayRecord, offlineSummarizer, type Summarizer } from '../summary.ts';
import { dueBy, phaseKey, type PhaseMoment } from './deadlines.ts';
import { BUDGET_NOTICE, BUDGET_TOPIC, fallbackNotice, fallbackTopic, modelTopic, modelUnavailableNotice } from './notices.ts';
import { describeDecision } from './reasoning-label.ts';
import { sequence, type Command, type Step } from './sequence.ts';
import { willFor } from './wills.ts';

/**
 * The game as the driver sees it: its current state, and one way in for commands (a GameSession).
 * The driver asks only whether a command went in, so what it gets back is left open.
 */
export interface DriverGame {
  readonly state: GameState;
  submit(command: Command): Promise<Result<unknown, unknown>>;
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
  /** A seat started or finished thinking (a typing indicator). */
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

/**
 * A decision in flight: aborted at its deadline, or when its phase has passed, or when the game
 * ends. Its AbortController is made only if someone asks for the signal (offline brains never do).
 * It is the decision's timing too: a literal with a getter is built slowly, and this runs for every decision.
 */
class Task implements DecisionTiming {
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

/** A pause between speeches: woken by the clock (true) or when the driver stops (false). A class, not closures: one is made per speech. */
class Pause {
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

const noop = (): void => undefined;

const DEFAULT_SPEECH_TURN_MS = 40_000;

const isDayStart = (e: GameEvent): boolean => e.type === 'phase_started' && e.payload.phase === 'day';

/**
 * Plays the AI seats of one game, in the bot, the demo and the bench alike. It reacts to what the
 * game publishes, asks each seat when it must act, and submits its moves as commands (which the
 * engine checks again).
 *
 * Every decision carries the deadline of the phase it is for, brought forward by a margin: at that
 * moment the seat's offline brain decides in its place, so every AI vote and night action is in
 * before its phase resolves, whatever the model does. Seats work independently and at once: a
 * slow seat, speech or recap never delays another seat's move. A move that comes after its phase
 * is dropped (and shown as such in the director's cut); a game that ends aborts all its AI work.
 */
export class AiDriver {
  private readonly tasks = new Set<Task>();
  private readonly jobs = new Set<Promise<void>>();
  private ended = false;
  /** Pauses between speeches, ended early (false) when the driver stops. */
  private readonly pauses = new Set<Pause>();
  private reacted = '';
  private discussing = false;
  private readonly spoken = new Map<string, { day: number; count: number; urgency: number | null }>();
  private quietWaiters: (() => void)[] = [];
  /** A seat's name as the game has it now (its id if it has none): one closure for the driver, not one per decision. */
  private readonly nameOf = (id: string): string => engine.findPlayer(this.game.state, id)?.name ?? id;
  private parkedWaiters: (() => void)[] = [];
  /** The phase a restart found past its moves' due time (phaseKey), whose owed moves are stand-ins placed at once. */
  private lateKey: string | null = null;

  constructor(
    private readonly game: DriverGame,
    private readonly seats: AiPlayers,
    private readonly options: AiDriverOptions,
  ) {}

  /**
   * Starts the work the current phase needs (at creation, or after a restart). A restart that finds
   * the phase past the moment its moves were due (late in the phase, or past its deadline while no
   * bot ran) has the offline brain place every living AI seat's owed move (night action, Mafia
   * proposal, vote) at once, recorded as a `restart` fallback; it resolves once those are stored, so
   * whoever resolves the phase can do it after them.
   */
  async resume(): Promise<void> {
    const due = dueBy(this.game.state);
    if (!this.options.untimed && due !== null && due <= this.options.clock.now()) this.lateKey = phaseKey(this.game.state);
    const moves = this.react();
    if (this.lateKey !== null) await Promise.all(moves);
  }

  /** Hook this to the game's publish. */
  onEvents(events: readonly GameEvent[]): void {
    if (this.stopped) return;
    let personSpoke = false;
    for (const e of events) {
      if (e.type === 'game_ended') {
        this.stop();
        return;
      }
      // The session publishes what is stored while the driver already works on what is decided, so the
      // lynch that opened last words can be heard after the last words began: it must not cancel them.
      if (e.type === 'player_died') this.abort((t) => t.playerId === e.payload.playerId && !t.speaksDead, 'stale');
      else if (e.type === 'mafia_second_round') this.job(this.secondRound());
      else if (e.type === 'speech' && e.payload.channel === 'town' && !this.seats.has(e.payload.playerId)) personSpoke = true;
    }
    // The moves it starts are tracked as jobs; only a resume waits for them.
    void this.react();
    // A person spoke: someone may have been addressed, so the discussion may go on.
    if (personSpoke && this.game.state.phase === 'day') this.job(this.discuss());
  }

  /** Aborts all outstanding AI work at once; nothing more is submitted. */
  stop(): void {
    if (this.stopped) return;
    this.ended = true;
    for (const pause of [...this.pauses]) pause.wake(false);
    this.abort(() => true, 'stop');
  }

  get stopped(): boolean {
    return this.ended;
  }

  /** Resolves when every job has finished (tests and shutdown; with a manual clock, pauses wait for it). */
  async idle(): Promise<void> {
    while (this.jobs.size > 0) await Promise.allSettled([...this.jobs]);
  }

  /** Resolves when no seat waits for its brain and no recap for its model (a headless runner may then move a manual clock on). */
  quiet(): Promise<void> {
    if (this.tasks.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.quietWaiters.push(resolve));
  }

  /** Decisions and recaps in flight. */
  get pending(): number {
    return this.tasks.size;
  }

  /** Whether some job is running or about to: not done and not pausing on the clock. */
  get busy(): boolean {
    return this.jobs.size > this.pauses.size;
  }

  /**
   * Resolves once every job is done or pauses on the clock: then nothing of the driver's moves
   * until the clock does, or the game publishes (a headless runner need not wait a macrotask).
   */
  parked(): Promise<void> {
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => this.parkedWaiters.push(resolve));
  }

  private wakeParked(): void {
    if (!this.busy && this.parkedWaiters.length > 0) for (const resolve of this.parkedWaiters.splice(0)) resolve();
  }

  private track(task: Task): void {
    this.tasks.add(task);
  }

  private untrack(task: Task): void {
    this.tasks.delete(task);
    if (this.tasks.size === 0 && this.quietWaiters.length > 0) for (const resolve of this.quietWaiters.splice(0)) resolve();
  }

  /** Starts what a new phase needs; returns the jobs placing the seats' moves (night actions, votes). */
  private react(): Promise<void>[] {
    const state = this.game.state;
    const key = phaseKey(state);
    if (key === this.reacted || this.stopped) return [];
    this.reacted = key;
    this.abort((t) => t.key !== null && t.key !== key, 'stale');
    switch (state.phase) {
      case 'night':
        this.job(this.recap());
        return this.nightMoves();
      case 'day':
        this.writeWills();
        this.job(this.discuss());
        return [];
      case 'defense':
        this.job(this.defense());
        return [];
      case 'vote':
        return this.votes();
      case 'last_words':
        this.job(this.lastWords());
        return [];
      case 'ended':
        this.stop();
        return [];
      default:
        return [];
    }
  }

  private abort(which: (task: Task) => boolean, why: NonNullable<Task['abortedBy']>): void {
    for (const task of this.tasks) if (which(task)) task.abort(why);
  }

  private job(work: Promise<void>): void {
    void this.tracked(work);
  }

  /** Tracks the work until it is done (idle waits for it); the promise returned settles then and never rejects. */
  private tracked(work: Promise<void>): Promise<void> {
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

  private ai(filter: (p: PlayerState) => boolean): PlayerState[] {
    return this.game.state.players.filter((p) => this.seats.has(p.id) && filter(p));
  }

  private submit(command: Command): Promise<Result<unknown, unknown>> {
    if (this.stopped) return Promise.resolve(err('stopped'));
    return this.game.submit(command);
  }

  /**
   * Asks a seat for a decision due at `due` (epoch ms on the clock). Null when the answer is no
   * longer wanted: its phase passed or the game ended while it thought.
   */
  private async decide(
    player: PlayerState,
    kind: DecisionKind,
    due: number,
    key: string | null = phaseKey(this.game.state),
  ): Promise<Decision | null> {
    if (this.stopped) return null;
    const timed = !this.options.untimed;
    const late = timed && due <= this.options.clock.now();
    const task = new Task(key, player.id, kind === 'last_words', timed ? due : undefined, late && key === this.lateKey);
    // A restart late in a phase may leave no time: the offline brain decides at once.
    if (late) task.abort('deadline');
    const cancel = timed ? this.options.clock.at(due, () => task.abort('deadline')) : noop;
    this.track(task);
    this.options.thinking?.(player.id, true);
    try {
      const decision = await this.seats.decide(this.game.state, player, kind, task);
      // stop() may have run during the await; a deadline abort before it leaves abortedBy at 'deadline'.
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- the await above may flip it
      if (task.abortedBy === 'stale' || task.abortedBy === 'stop' || this.stopped) return null;
      if (decision.fallback) await this.fellBack(player, kind, decision.fallback);
      return decision;
    } finally {
      cancel();
      this.untrack(task);
      this.options.thinking?.(player.id, false);
    }
  }

  /** Tells the table once per seat (once for the budget, once per gone model) and the log every time. */
  private async fellBack(player: PlayerState, kind: DecisionKind, fallback: Fallback): Promise<void> {
    this.options.onFallback?.(player, kind, fallback);
    const { category, model } = fallback;
    // The bot's own absence, not the model's failing: nothing to tell the table.
    if (category === 'restart') return;
    if (category === 'budget_spent') await this.submit((s, at) => engine.announce(s, { text: BUDGET_NOTICE, topic: BUDGET_TOPIC, at }));
    else if (category === 'model_unavailable' && model)
      await this.submit((s, at) =>
        engine.announce(s, { text: modelUnavailableNotice(player.name, model), topic: modelTopic(player.id, model), at }),
      );
    else
      await this.submit((s, at) =>
        engine.announce(s, { text: fallbackNotice(player.name, category), topic: fallbackTopic(player.id), at }),
      );
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
   * Submits a decision as one command: its words first (if any; they may be refused alone), the move
   * (what counts; none for a speech), what may come with them (a nomination), then its reasoning. A refused move is kept as refused or late.
   */
  private async play(
    player: PlayerState,
    kind: DecisionKind,
    decision: Decision,
    forState: PhaseMoment,
    move: Command | null,
    said?: Command | null,
    also?: Command | null,
  ): Promise<boolean> {
    const counted = this.reasoning(player, kind, decision, forState, 'counted');
    const steps: Step[] = [];
    if (said) steps.push({ command: said, required: move === null });
    if (move) steps.push({ command: move, required: true });
    // What comes with the words but may be refused alone (a nomination the day has no room for).
    if (also) steps.push({ command: also, required: false });
    if (counted) steps.push({ command: counted, required: false });
    if (steps.length === 0) return true;
    const result = await this.submit(sequence(steps));
    if (result.ok) return true;
    const refused = this.reasoning(player, kind, decision, forState, this.refusal(phaseKey(forState)));
    if (refused) await this.submit(refused);
    return false;
  }

  /** What became of a move the engine refused: the phase had passed, or the rules said no. */
  private refusal(key: string): ReasoningOutcome {
    return phaseKey(this.game.state) === key ? 'refused' : 'late';
  }

  // ── Night ──────────────────────────────────────────────────────────────────────────────

  private nightMoves(): Promise<void>[] {
    const state = this.game.state;
    const due = dueBy(state) ?? this.options.clock.now();
    const moves = this.ai((p) => engine.hasNightAction(state, p) && !engine.isMafia(p.role) && !(p.id in state.night.actions)).map((p) =>
      this.tracked(this.nightAction(p, due)),
    );
    return [...moves, this.tracked(this.mafiaNight(due))];
  }

  private async nightAction(player: PlayerState, due: number): Promise<void> {
    const forState = { phase: this.game.state.phase, day: this.game.state.day };
    const key = phaseKey(forState);
    const decision = await this.decide(player, 'night', due);
    if (!decision) return;
    const acted = await this.play(player, 'night', decision, forState, (s, at) =>
      engine.act(s, { actorId: player.id, targetId: decision.targetId, at }),
    );
    // A target gone since the decision: the seat skips rather than lose its turn to an error.
    if (!acted && phaseKey(this.game.state) === key)
      await this.submit((s, at) => engine.act(s, { actorId: player.id, targetId: null, at }));
  }

  /**
   * One proposal a night for the AI Mafia: one member (in turn, night by night) asks its model and
   * speaks in the thread; its AI teammates back that target without a call of their own.
   */
  private async mafiaNight(due: number): Promise<void> {
    const state = this.game.state;
    const forState = { phase: state.phase, day: state.day };
    const key = phaseKey(state);
    const members = this.ai((p) => engine.isMafia(p.role) && engine.hasNightAction(state, p)).sort((a, b) => a.seat - b.seat);
    if (members.length === 0 || members.every((p) => p.id in state.night.proposals)) return;
    const proposer = must(members[(Math.max(1, state.day) - 1) % members.length], 'the Mafia member in turn');
    let target: string | null | undefined = state.night.proposals[proposer.id];
    if (!(proposer.id in state.night.proposals)) {
      const decision = await this.decide(proposer, 'mafia_chat', due);
      if (!decision) return;
      const text = decision.speech;
      const said: Command | null = text ? (s, at) => engine.speak(s, { playerId: proposer.id, channel: 'mafia', text, at }) : null;
      const acted = await this.play(
        proposer,
        'mafia_chat',
        decision,
        forState,
        (s, at) => engine.act(s, { actorId: proposer.id, targetId: decision.targetId, at }),
        said,
      );
      target = acted ? decision.targetId : undefined;
    }
    for (const member of members) {
      const now = this.game.state;
      if (member.id === proposer.id || member.id in now.night.proposals || phaseKey(now) !== key || now.night.mafiaRound !== 1) continue;
      const backing =
        target !== undefined && !engine.nightTargetError(now, member.id, target)
          ? target
          : this.seats.offline(now, member, 'night').targetId;
      const decision: Decision = {
        targetId: backing,
        speech: null,
        reasoning: `Backs ${proposer.name}'s proposal.`,
        // Its reads stand as they were: the director's cut and the replay still see all of them.
        beliefs: this.seats.beliefsOf(member.id),
        urgency: 0,
      };
      await this.play(member, 'mafia_chat', decision, forState, (s, at) => engine.act(s, { actorId: member.id, targetId: backing, at }));
    }
  }

  /** A split first round: the AI members settle as the tie rule would, by the offline brain, without a model call. */
  private async secondRound(): Promise<void> {
    const state = this.game.state;
    const forState = { phase: state.phase, day: state.day };
    const key = phaseKey(state);
    for (const member of this.ai((p) => engine.isMafia(p.role) && engine.hasNightAction(state, p))) {
      const now = this.game.state;
      if (member.id in now.night.proposals || phaseKey(now) !== key) continue;
      const decision = this.seats.offline(now, member, 'mafia_chat');
      const text = decision.speech;
      const said: Command | null = text ? (s, at) => engine.speak(s, { playerId: member.id, channel: 'mafia', text, at }) : null;
      await this.play(
        member,
        'mafia_chat',
        decision,
        forState,
        (s, at) => engine.act(s, { actorId: member.id, targetId: decision.targetId, at }),
        said,
      );
    }
  }

  /** Once a day has ended, one call writes its public recap for every seat's later prompts; it may finish after the night. */
  private async recap(): Promise<void> {
    const state = this.game.state;
    const day = state.day - 1;
    if (day < 1 || state.log.some((e) => e.type === 'day_summary' && e.payload.day === day)) return;
    const offline = (): string | Promise<string> => offlineSummarizer(this.game.state)({ day, lines: [] });
    let text: string;
    const summarizer = this.options.summarizer;
    if (summarizer && state.deadline !== null) {
      const task = new Task(null, null);
      const deadline = state.deadline;
      const timed = !this.options.untimed;
      const cancel = timed ? this.options.clock.at(deadline, () => task.abort('deadline')) : () => undefined;
      this.track(task);
      try {
        text = await summarizer(dayRecord(state, day), { signal: task.signal, ...(timed && { deadline }) });
      } catch {
        text = await offline();
      } finally {
        cancel();
        this.untrack(task);
      }
    } else text = await offline();
    await this.submit((s, at) => engine.recordDaySummary(s, { day, text: text.slice(0, engine.MAX_SUMMARY_LENGTH), at }));
  }

  // ── Day ────────────────────────────────────────────────────────────────────────────────

  /** Wills are rewritten from each seat's facts and beliefs when they change, without a model call, in one write. */
  private writeWills(): void {
    const state = this.game.state;
    if (!state.settings.rules.lastWills) return;
    const steps: Step[] = [];
    for (const p of this.ai((p) => p.alive)) {
      const view = engine.viewFor(state, p.id);
      if (!view) continue;
      const text = willFor(view, this.seats.beliefsOf(p.id));
      if (text !== p.will) steps.push({ command: willCommand(p.id, text), required: false });
    }
    if (steps.length > 0) this.job(this.submit(sequence(steps)).then(() => undefined));
  }

  private lastTownSpeech(): { speakerId: string; text: string } | null {
    const e = this.game.state.log.findLast((e) => isDayStart(e) || (e.type === 'speech' && e.payload.channel === 'town'));
    return e?.type === 'speech' ? { speakerId: e.payload.playerId, text: e.payload.text } : null;
  }

  /** One AI speaks at a time, in the order the scheduler picks; each has a turn's time to think. */
  private async discuss(): Promise<void> {
    // A loop already running reads the log afresh before each speaker.
    if (this.discussing) return;
    this.discussing = true;
    try {
      const day = this.game.state.day;
      while (!this.stopped && this.game.state.phase === 'day' && this.game.state.day === day) {
        const next = nextSpeaker({
          candidates: this.speakers(day),
          lastSpeech: this.lastTownSpeech(),
          day,
          maxPerSeat: this.options.maxSpeechesPerDay ?? 2,
        });
        if (!next) return;
        const speaker = must(engine.findPlayer(this.game.state, next.id), `speaker ${next.id}`);
        const dayDue = dueBy(this.game.state) ?? this.options.clock.now();
        const due = Math.min(dayDue, this.options.clock.now() + (this.options.speechTurnMs ?? DEFAULT_SPEECH_TURN_MS));
        const forState = { phase: this.game.state.phase, day };
        const decision = await this.decide(speaker, 'speak', due);
        if (!decision) return;
        this.spoken.set(speaker.id, { day, count: next.spoken + 1, urgency: decision.urgency });
        const text = decision.speech;
        const nominee = decision.targetId;
        await this.play(
          speaker,
          'speak',
          decision,
          forState,
          null,
          text ? (s, at) => engine.speak(s, { playerId: speaker.id, channel: 'town', text, at }) : null,
          nominee ? (s, at) => engine.nominate(s, { playerId: speaker.id, targetId: nominee, at }) : null,
        );
        if (this.options.speechGapMs > 0 && !(await this.pause(this.options.speechGapMs))) return;
      }
    } finally {
      this.discussing = false;
    }
  }

  /** Waits on the game's clock; false when the driver stopped first. */
  private pause(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const pause = new Pause(this.pauses, resolve);
      pause.cancel = this.options.clock.at(this.options.clock.now() + ms, () => pause.wake(true));
      this.pauses.add(pause);
      this.wakeParked();
    });
  }

  private speakers(day: number) {
    // Town speeches since the current day began (a restarted driver must not redo what the log shows done).
    const said = new Map<string, number>();
    const log = this.game.state.log;
    const start = log.findLastIndex(isDayStart);
    for (let i = start < 0 ? log.length : start; i < log.length; i++) {
      const e = log[i] as GameEvent;
      if (e.type === 'speech' && e.payload.channel === 'town') said.set(e.payload.playerId, (said.get(e.payload.playerId) ?? 0) + 1);
    }
    return this.ai((p) => p.alive).map((p) => {
      const record = this.spoken.get(p.id);
      const today = record?.day === day ? record : { day, count: 0, urgency: null };
      // After a restart only the log knows who already spoke today.
      return { id: p.id, name: p.name, seat: p.seat, spoken: Math.max(today.count, said.get(p.id) ?? 0), urgency: today.urgency };
    });
  }

  private votes(): Promise<void>[] {
    const state = this.game.state;
    const due = dueBy(state) ?? this.options.clock.now();
    return this.ai((p) => p.alive && !(p.id in state.votes)).map((p) => this.tracked(this.voteOf(p, due)));
  }

  /** Each seat's vote goes in as soon as it is decided, its one line said first (the vote may close the day). */
  private async voteOf(player: PlayerState, due: number): Promise<void> {
    const forState = { phase: this.game.state.phase, day: this.game.state.day };
    const key = phaseKey(forState);
    let decision = await this.decide(player, 'vote', due);
    if (!decision) return;
    let target = decision.targetId ?? 'no_lynch';
    if (phaseKey(this.game.state) === key && engine.voteError(this.game.state, player.id, target)) {
      // Legal when decided, not now: the seat's offline brain picks among today's options.
      decision = {
        ...this.seats.offline(this.game.state, player, 'vote'),
        fallback: { category: 'invalid_answer', detail: `vote for ${target} no longer legal` },
      };
      target = decision.targetId ?? 'no_lynch';
    }
    const text = decision.speech;
    const said: Command | null = text ? (s, at) => engine.speak(s, { playerId: player.id, channel: 'town', text, at }) : null;
    await this.play(player, 'vote', decision, forState, (s, at) => engine.vote(s, { voterId: player.id, targetId: target, at }), said);
  }

  /** A trial day: an AI defendant speaks in its defense, then rests its case, so the next nominee (or the vote) follows at once. */
  private async defense(): Promise<void> {
    const state = this.game.state;
    const id = state.trial.defendant;
    const defendant = id === null ? undefined : engine.findPlayer(state, id);
    if (!defendant?.alive || !this.seats.has(defendant.id)) return;
    const forState: PhaseMoment = { phase: state.phase, day: state.day, trial: { defendant: defendant.id } };
    const decision = await this.decide(defendant, 'defense', dueBy(state) ?? this.options.clock.now());
    if (!decision) return;
    const text = decision.speech;
    await this.play(
      defendant,
      'defense',
      decision,
      forState,
      (s, at) => engine.restDefense(s, { playerId: defendant.id, at }),
      text ? (s, at) => engine.speak(s, { playerId: defendant.id, channel: 'town', text, at }) : null,
    );
  }

  private async lastWords(): Promise<void> {
    const state = this.game.state;
    const id = state.lynchedToday;
    const lynched = id ? engine.findPlayer(state, id) : undefined;
    if (!lynched || !this.seats.has(lynched.id)) return;
    if (state.log.some((e) => e.type === 'speech' && e.payload.channel === 'last_words' && e.payload.playerId === lynched.id)) return;
    const forState = { phase: state.phase, day: state.day };
    const decision = await this.decide(lynched, 'last_words', dueBy(state) ?? this.options.clock.now());
    if (!decision) return;
    const text = decision.speech;
    await this.play(
      lynched,
      'last_words',
      decision,
      forState,
      null,
      text ? (s, at) => engine.speak(s, { playerId: lynched.id, channel: 'last_words', text, at }) : null,
    );
  }
}

/** Writes a seat's will (a module function: a closure named as a property costs one more call per will). */
function willCommand(playerId: string, text: string): Command {
  return (s, at) => engine.writeWill(s, { playerId, text, at });
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
