import * as engine from '../game/index.ts';
import type { CommandResult, GameState, PlayerState, SettingsInput } from '../game/index.ts';
import type { Beliefs } from './beliefs.ts';
import type { AsyncBrain, Decision, DecisionKind } from './decision.ts';
import { SeatMinds } from './seat-minds.ts';
import { nextSpeaker } from './scheduler.ts';
import { dayRecord, offlineSummarizer, type Summarizer } from './summary.ts';

export interface TableSeat {
  readonly id: string;
  readonly name: string;
  readonly brain: AsyncBrain;
}

/** A seat's mind between calls: beliefs it wrote, facts the engine gave it. */
export interface SeatMind {
  readonly beliefs: Beliefs;
  readonly memory: readonly string[];
}

/** Where minds persist, so a restarted process goes on with the same minds. */
export interface MindStore {
  load(gameId: string): Promise<Record<string, SeatMind>>;
  save(gameId: string, playerId: string, mind: SeatMind): Promise<void>;
}

export interface TableOptions {
  /** Record each decision's private reasoning in the log, for the director's cut. */
  readonly recordReasoning?: boolean;
  /** Parallel: every seat decides at once (LLM seats); sequential: each sees the votes before it. */
  readonly voting?: 'parallel' | 'sequential';
  /** Cap on speeches per AI seat per day. */
  readonly maxSpeechesPerDay?: number;
  readonly summarizer?: Summarizer;
  readonly minds?: MindStore;
  /** Called with every batch of new events (presenters, the demo's live output). */
  readonly onEvents?: (events: readonly engine.GameEvent[], state: GameState) => void;
}

export interface NewTable extends TableOptions {
  readonly gameId: string;
  readonly seed: number;
  readonly seats: readonly TableSeat[];
  readonly settings?: SettingsInput;
  /** Epoch ms of the virtual clock's start; the same start gives the same event times. */
  readonly startAt?: number;
}

export type TableResult = { ok: true; state: GameState } | { ok: false; error: string };

const MAX_STEPS = 20_000;
const BUDGET_NOTICE = "The AI players' token budget for today is spent: they play on with the offline brain.";

/** Creates, seats and starts an all-AI game, then plays it to the end on a virtual clock. */
export async function playGame(options: NewTable): Promise<TableResult> {
  let clock = options.startAt ?? 0;
  const created = engine.createGame({ gameId: options.gameId, seed: options.seed, settings: options.settings, at: clock });
  if (!created.ok) return { ok: false, error: created.error.message };
  let state = created.state;
  for (const seat of options.seats) {
    const joined = engine.join(state, { player: { id: seat.id, name: seat.name, kind: 'ai' }, at: clock });
    if (!joined.ok) return { ok: false, error: joined.error.message };
    state = joined.state;
  }
  const started = engine.start(state, { at: clock });
  if (!started.ok) return { ok: false, error: started.error.message };
  options.onEvents?.(started.state.log, started.state);
  const runner = new TableRunner(started.state, options.seats, options, clock);
  return runner.run();
}

/**
 * Drives the AI seats of a game through its phases. Phases that wait for people
 * jump to their deadline on the virtual clock.
 */
export class TableRunner {
  private readonly seats: SeatMinds;
  private budgetAnnounced = false;

  constructor(
    private state: GameState,
    seats: readonly TableSeat[],
    private readonly options: TableOptions,
    private clock: number,
  ) {
    this.seats = new SeatMinds(seats, options.minds);
    this.budgetAnnounced = budgetAnnounced(state);
  }

  async run(): Promise<TableResult> {
    await this.seats.load(this.state.id);
    for (let step = 0; this.state.phase !== 'ended'; step++) {
      if (step > MAX_STEPS) return { ok: false, error: `game ${this.state.id} did not end in ${MAX_STEPS} steps` };
      await this.playPhase();
    }
    return { ok: true, state: this.state };
  }

  get current(): GameState {
    return this.state;
  }

  private async playPhase(): Promise<void> {
    const { phase, day } = this.state;
    if (phase === 'night') await this.night();
    else if (phase === 'day') await this.day();
    else if (phase === 'vote') await this.vote();
    else if (phase === 'last_words') await this.lastWords();
    if (this.state.phase === phase && this.state.day === day && this.state.deadline !== null) {
      this.clock = Math.max(this.clock, this.state.deadline);
      this.apply(engine.advance(this.state, { at: this.clock }));
    }
  }

  private aiSeats(filter: (p: PlayerState) => boolean): PlayerState[] {
    return this.state.players.filter((p) => this.seats.has(p.id) && filter(p));
  }

  private async night(): Promise<void> {
    await this.summarizeFinishedDay();
    // Each pass asks every seat that still owes an action; the second covers the Mafia's round two.
    for (let pass = 0; pass < 2 && this.state.phase === 'night'; pass++) {
      const owing = this.aiSeats((p) => {
        if (!engine.hasNightAction(this.state, p)) return false;
        return engine.isMafia(p.role) ? !(p.id in this.state.night.proposals) : !(p.id in this.state.night.actions);
      });
      const decided = await this.decideAll(owing, (p) => (engine.isMafia(p.role) ? 'mafia_chat' : 'night'));
      for (const [p, decision] of decided) {
        if (this.state.phase !== 'night') break;
        if (engine.isMafia(p.role) && decision.speech) this.tryApply(engine.speak(this.state, this.speech(p, 'mafia', decision.speech)));
        const acted = engine.act(this.state, { actorId: p.id, targetId: decision.targetId, at: this.tick() });
        this.apply(acted.ok ? acted : engine.act(this.state, { actorId: p.id, targetId: null, at: this.clock }));
      }
    }
  }

  private async day(): Promise<void> {
    // Wills are brought up to date once a day, after the night's results are in.
    await this.updateWills();
    const spoken = new Map<string, number>();
    const urgency = new Map<string, number>();
    const cap = this.options.maxSpeechesPerDay ?? 2;
    for (let turn = 0; this.state.phase === 'day' && turn < 200; turn++) {
      const candidates = this.aiSeats((p) => p.alive).map((p) => ({
        id: p.id,
        name: p.name,
        seat: p.seat,
        spoken: spoken.get(p.id) ?? 0,
        urgency: urgency.get(p.id) ?? null,
      }));
      const next = nextSpeaker({ candidates, lastSpeech: this.lastSpeechToday(), day: this.state.day, maxPerSeat: cap });
      if (!next) break;
      const speaker = engine.findPlayer(this.state, next.id)!;
      const decision = await this.ask(speaker, 'speak');
      spoken.set(speaker.id, (spoken.get(speaker.id) ?? 0) + 1);
      urgency.set(speaker.id, decision.urgency);
      if (decision.speech) this.tryApply(engine.speak(this.state, this.speech(speaker, 'town', decision.speech)));
    }
  }

  private lastSpeechToday(): { speakerId: string; text: string } | null {
    for (let i = this.state.log.length - 1; i >= 0; i--) {
      const e = this.state.log[i]!;
      if (e.type === 'phase_started' && e.payload.phase === 'day') return null;
      if (e.type === 'speech' && e.payload.channel === 'town') return { speakerId: e.payload.playerId, text: e.payload.text };
    }
    return null;
  }

  private async vote(): Promise<void> {
    const voters = this.aiSeats((p) => p.alive);
    if (this.options.voting === 'sequential') {
      for (const p of voters) {
        if (this.state.phase !== 'vote') return;
        this.castVote(p, await this.ask(p, 'vote'));
      }
      return;
    }
    for (const [p, decision] of await this.decideAll(voters, () => 'vote')) {
      if (this.state.phase !== 'vote') return;
      this.castVote(p, decision);
    }
  }

  private castVote(p: PlayerState, decision: Decision): void {
    const target = decision.targetId ?? 'no_lynch';
    if (engine.voteError(this.state, p.id, target)) {
      // An illegal choice (the target died meanwhile) becomes the first legal vote, said nothing.
      const fallback = engine.legalVoteTargets(this.state, p.id)[0];
      this.tryApply(engine.vote(this.state, { voterId: p.id, targetId: fallback?.id ?? 'no_lynch', at: this.tick() }));
      return;
    }
    // The reason is said aloud first: the vote itself may close the day.
    if (decision.speech) this.tryApply(engine.speak(this.state, this.speech(p, 'town', decision.speech)));
    this.apply(engine.vote(this.state, { voterId: p.id, targetId: target, at: this.tick() }));
  }

  private async lastWords(): Promise<void> {
    const lynched = this.state.lynchedToday ? engine.findPlayer(this.state, this.state.lynchedToday) : undefined;
    if (!lynched || !this.seats.has(lynched.id)) return;
    const decision = await this.ask(lynched, 'last_words');
    if (decision.speech) this.tryApply(engine.speak(this.state, this.speech(lynched, 'last_words', decision.speech)));
  }

  /** A will changes only when its writer learned something privately (role, result, own action). */
  private async updateWills(): Promise<void> {
    if (!this.state.settings.rules.lastWills) return;
    const privateEvents = new Map<string, number>();
    for (const e of this.state.log) {
      if (e.visibility.kind !== 'player' || e.type === 'will_written') continue;
      privateEvents.set(e.visibility.playerId, (privateEvents.get(e.visibility.playerId) ?? 0) + 1);
    }
    const writers = this.aiSeats((p) => p.alive && (privateEvents.get(p.id) ?? 0) !== this.willBasis.get(p.id));
    for (const p of writers) this.willBasis.set(p.id, privateEvents.get(p.id) ?? 0);
    for (const [p, will] of await this.decideAll(writers, () => 'will')) {
      if (will.speech) this.tryApply(engine.writeWill(this.state, { playerId: p.id, text: will.speech, at: this.clock }));
    }
  }

  private readonly willBasis = new Map<string, number>();

  /** Once a day has ended, one summary call writes its public recap for every seat's later prompts. */
  private async summarizeFinishedDay(): Promise<void> {
    const day = this.state.day - 1;
    if (day < 1 || this.state.log.some((e) => e.type === 'day_summary' && e.payload.day === day)) return;
    // The offline recap reads the log itself; only a model needs the day written out as lines.
    const offline = () => offlineSummarizer(this.state)({ day, lines: [] });
    let text: string;
    try {
      text = this.options.summarizer ? await this.options.summarizer(dayRecord(this.state, day)) : await offline();
    } catch {
      text = await offline();
    }
    this.tryApply(engine.recordDaySummary(this.state, { day, text: text.slice(0, engine.MAX_SUMMARY_LENGTH), at: this.clock }));
  }

  /** Independent decisions run concurrently; results are applied in seat order. */
  private async decideAll(players: readonly PlayerState[], kind: (p: PlayerState) => DecisionKind): Promise<[PlayerState, Decision][]> {
    const snapshot = this.state;
    const decisions = await Promise.all(players.map((p) => this.ask(p, kind(p), snapshot)));
    return players.map((p, i) => [p, decisions[i]!]);
  }

  private async ask(player: PlayerState, kind: DecisionKind, at: GameState = this.state): Promise<Decision> {
    const decision = await this.seats.decide(at, player, kind);
    for (const command of afterDecision(this.state, player, kind, decision, this.budgetAnnounced, this.options.recordReasoning ?? true)) {
      if (command.announcesBudget) this.budgetAnnounced = true;
      this.tryApply(command.run(this.state, this.clock));
    }
    return decision;
  }

  private speech(player: PlayerState, channel: engine.SpeechChannel, text: string) {
    return { playerId: player.id, channel, text, at: this.tick() };
  }

  private tick(): number {
    this.clock += 1000;
    return this.clock;
  }

  private apply(result: CommandResult): void {
    if (!result.ok) throw new Error(`engine refused a table move: ${result.error.message}`);
    this.commit(result);
  }

  private tryApply(result: CommandResult): void {
    if (result.ok) this.commit(result);
  }

  private commit(result: Extract<CommandResult, { ok: true }>): void {
    this.state = result.state;
    this.options.onEvents?.(result.events, result.state);
  }
}

export const BUDGET_NOTICE_TEXT = BUDGET_NOTICE;

export function budgetAnnounced(state: GameState): boolean {
  return state.log.some((e) => e.type === 'notice' && e.payload.text === BUDGET_NOTICE);
}

/** Commands that follow a decision: its private reasoning for the director's cut, and the budget notice once. */
export function afterDecision(
  state: GameState,
  player: PlayerState,
  kind: DecisionKind,
  decision: Decision,
  announced: boolean,
  recordReasoning = true,
): { run: (state: GameState, at: number) => CommandResult; announcesBudget: boolean }[] {
  const commands: { run: (state: GameState, at: number) => CommandResult; announcesBudget: boolean }[] = [];
  if (decision.fallback?.startsWith('budget') && !announced) {
    commands.push({ run: (s, at) => engine.announce(s, { text: BUDGET_NOTICE, at }), announcesBudget: true });
  }
  if (recordReasoning) {
    const label = describeDecision(kind, decision, (id) => engine.findPlayer(state, id)?.name ?? id);
    commands.push({
      run: (s, at) => engine.recordReasoning(s, { playerId: player.id, decision: label, text: decision.reasoning, at }),
      announcesBudget: false,
    });
  }
  return commands;
}

export function describeDecision(kind: DecisionKind, decision: Decision, name: (id: string) => string): string {
  const target = decision.targetId === 'no_lynch' ? 'no lynch' : decision.targetId ? name(decision.targetId) : 'nobody';
  const fallback = decision.fallback ? ` (offline fallback: ${decision.fallback})` : '';
  switch (kind) {
    case 'night':
    case 'mafia_chat':
      return `night action → ${target}${fallback}`;
    case 'vote':
      return `vote → ${target}${fallback}`;
    case 'speak':
      return `speech${fallback}`;
    case 'last_words':
      return `last words${fallback}`;
    case 'will':
      return `will${fallback}`;
  }
}

