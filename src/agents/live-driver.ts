import * as engine from '../game/index.ts';
import type { CommandResult, GameEvent, GameState, PlayerState } from '../game/index.ts';
import type { Decision, DecisionKind } from './decision.ts';
import { nextSpeaker } from './scheduler.ts';
import type { SeatMinds } from './seat-minds.ts';
import { dayRecord, offlineSummarizer, type Summarizer } from './summary.ts';
import { afterDecision, budgetAnnounced } from './table.ts';

/** The game as the driver sees it: its current state, and one way in for commands. */
export interface LiveGame {
  readonly state: GameState;
  submit(command: (state: GameState, at: number) => CommandResult): Promise<{ readonly ok: boolean }>;
}

export interface LiveDriverOptions {
  /** Pause between AI speeches, so people can read and answer (ms). */
  readonly speechGapMs: number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly maxSpeechesPerDay?: number;
  readonly summarizer?: Summarizer;
  readonly recordReasoning?: boolean;
  /** Shown while a seat is thinking (a typing indicator), and when it is done. */
  readonly thinking?: (playerId: string, busy: boolean) => void;
}

/**
 * Plays the AI seats of a game that people play too, in real time: it reacts to what the
 * session publishes, asks the seats when they must act, and submits their moves as commands
 * (which the engine checks again, so a move that came too late is simply refused).
 */
export class LiveAiDriver {
  private work: Promise<void> = Promise.resolve();
  private speaking = false;
  private announced: boolean;

  constructor(
    private readonly game: LiveGame,
    private readonly seats: SeatMinds,
    private readonly options: LiveDriverOptions,
  ) {
    this.announced = budgetAnnounced(game.state);
  }

  /** Resolves when the driver has nothing left to do for now (for tests and shutdown). */
  idle(): Promise<void> {
    return this.work;
  }

  /** Starts the work the current phase needs (at creation, or after a restart). */
  resume(): void {
    this.react(this.game.state.phase);
  }

  /** Hook this to the session's publish. */
  onEvents(events: readonly GameEvent[]): void {
    for (const e of events) {
      if (e.type === 'phase_started') this.react(e.payload.phase);
      else if (e.type === 'mafia_second_round') this.enqueue(() => this.nightActions());
      else if (e.type === 'speech' && e.payload.channel === 'town' && !this.seats.has(e.payload.playerId)) {
        // A person spoke: someone may have been addressed, so the discussion may go on.
        if (this.game.state.phase === 'day' && !this.speaking) this.enqueue(() => this.discuss());
      }
    }
  }

  private react(phase: engine.Phase): void {
    if (phase === 'night') this.enqueue(async () => {
      await this.summarize();
      await this.nightActions();
    });
    else if (phase === 'day') this.enqueue(async () => {
      await this.wills();
      await this.discuss();
    });
    else if (phase === 'vote') this.enqueue(() => this.votes());
    else if (phase === 'last_words') this.enqueue(() => this.lastWords());
  }

  private enqueue(job: () => Promise<void>): void {
    this.work = this.work.then(job).catch(() => undefined);
  }

  private ai(filter: (p: PlayerState) => boolean): PlayerState[] {
    return this.game.state.players.filter((p) => this.seats.has(p.id) && filter(p));
  }

  private async ask(player: PlayerState, kind: DecisionKind, state: GameState): Promise<Decision> {
    this.options.thinking?.(player.id, true);
    try {
      const decision = await this.seats.decide(state, player, kind);
      for (const command of afterDecision(this.game.state, player, kind, decision, this.announced, this.options.recordReasoning ?? true)) {
        if (command.announcesBudget) this.announced = true;
        await this.game.submit(command.run);
      }
      return decision;
    } finally {
      this.options.thinking?.(player.id, false);
    }
  }

  private async askAll(players: readonly PlayerState[], kind: (p: PlayerState) => DecisionKind): Promise<[PlayerState, Decision][]> {
    const snapshot = this.game.state;
    const decisions = await Promise.all(players.map((p) => this.ask(p, kind(p), snapshot)));
    return players.map((p, i) => [p, decisions[i]!]);
  }

  private async nightActions(): Promise<void> {
    if (this.game.state.phase !== 'night') return;
    const owing = this.ai((p) => {
      const s = this.game.state;
      if (!engine.hasNightAction(s, p)) return false;
      return engine.isMafia(p.role) ? !(p.id in s.night.proposals) : !(p.id in s.night.actions);
    });
    for (const [p, decision] of await this.askAll(owing, (p) => (engine.isMafia(p.role) ? 'mafia_chat' : 'night'))) {
      if (engine.isMafia(p.role) && decision.speech) {
        const text = decision.speech;
        await this.game.submit((s, at) => engine.speak(s, { playerId: p.id, channel: 'mafia', text, at }));
      }
      const acted = await this.game.submit((s, at) => engine.act(s, { actorId: p.id, targetId: decision.targetId, at }));
      if (!acted.ok) await this.game.submit((s, at) => engine.act(s, { actorId: p.id, targetId: null, at }));
    }
  }

  /** Events since the current day began (a restarted driver must not redo what the log shows done). */
  private today(): readonly GameEvent[] {
    const log = this.game.state.log;
    for (let i = log.length - 1; i >= 0; i--) {
      const e = log[i]!;
      if (e.type === 'phase_started' && e.payload.phase === 'day') return log.slice(i);
    }
    return [];
  }

  private async wills(): Promise<void> {
    if (!this.game.state.settings.rules.lastWills) return;
    const written = new Set(this.today().flatMap((e) => (e.type === 'will_written' ? [e.payload.playerId] : [])));
    const writers = this.ai((p) => p.alive && !written.has(p.id) && engine.getRole(p.role ?? 'townsperson').nightAction !== null);
    for (const [p, will] of await this.askAll(writers, () => 'will')) {
      const text = will.speech;
      if (text) await this.game.submit((s, at) => engine.writeWill(s, { playerId: p.id, text, at }));
    }
  }

  private lastTownSpeech(): { speakerId: string; text: string } | null {
    const log = this.game.state.log;
    for (let i = log.length - 1; i >= 0; i--) {
      const e = log[i]!;
      if (e.type === 'phase_started' && e.payload.phase === 'day') return null;
      if (e.type === 'speech' && e.payload.channel === 'town') return { speakerId: e.payload.playerId, text: e.payload.text };
    }
    return null;
  }

  private readonly spoken = new Map<string, { day: number; count: number; urgency: number | null }>();

  private async discuss(): Promise<void> {
    this.speaking = true;
    try {
      const day = this.game.state.day;
      while (this.game.state.phase === 'day' && this.game.state.day === day) {
        const said = new Map<string, number>();
        for (const e of this.today()) if (e.type === 'speech' && e.payload.channel === 'town') said.set(e.payload.playerId, (said.get(e.payload.playerId) ?? 0) + 1);
        const candidates = this.ai((p) => p.alive).map((p) => {
          const record = this.spoken.get(p.id);
          const today = record?.day === day ? record : { day, count: 0, urgency: null };
          // After a restart only the log knows who already spoke today.
          return { id: p.id, name: p.name, seat: p.seat, spoken: Math.max(today.count, said.get(p.id) ?? 0), urgency: today.urgency };
        });
        const next = nextSpeaker({ candidates, lastSpeech: this.lastTownSpeech(), day, maxPerSeat: this.options.maxSpeechesPerDay ?? 2 });
        if (!next) return;
        const speaker = engine.findPlayer(this.game.state, next.id)!;
        const decision = await this.ask(speaker, 'speak', this.game.state);
        this.spoken.set(speaker.id, { day, count: next.spoken + 1, urgency: decision.urgency });
        const text = decision.speech;
        if (text) await this.game.submit((s, at) => engine.speak(s, { playerId: speaker.id, channel: 'town', text, at }));
        await this.options.sleep(this.options.speechGapMs);
      }
    } finally {
      this.speaking = false;
    }
  }

  private async votes(): Promise<void> {
    if (this.game.state.phase !== 'vote') return;
    const owing = this.ai((p) => p.alive && !(p.id in this.game.state.votes));
    for (const [p, decision] of await this.askAll(owing, () => 'vote')) {
      const target = decision.targetId ?? 'no_lynch';
      const text = decision.speech;
      if (text && !engine.voteError(this.game.state, p.id, target)) {
        await this.game.submit((s, at) => engine.speak(s, { playerId: p.id, channel: 'town', text, at }));
      }
      const cast = await this.game.submit((s, at) => engine.vote(s, { voterId: p.id, targetId: target, at }));
      if (!cast.ok && this.game.state.phase === 'vote') {
        const fallback = engine.legalVoteTargets(this.game.state, p.id)[0];
        await this.game.submit((s, at) => engine.vote(s, { voterId: p.id, targetId: fallback?.id ?? 'no_lynch', at }));
      }
    }
  }

  private async lastWords(): Promise<void> {
    const id = this.game.state.lynchedToday;
    const lynched = id ? engine.findPlayer(this.game.state, id) : undefined;
    if (!lynched || !this.seats.has(lynched.id)) return;
    if (this.game.state.log.some((e) => e.type === 'speech' && e.payload.channel === 'last_words' && e.payload.playerId === lynched.id)) return;
    const text = (await this.ask(lynched, 'last_words', this.game.state)).speech;
    if (text) await this.game.submit((s, at) => engine.speak(s, { playerId: lynched.id, channel: 'last_words', text, at }));
  }

  private async summarize(): Promise<void> {
    const state = this.game.state;
    const day = state.day - 1;
    if (day < 1 || state.log.some((e) => e.type === 'day_summary' && e.payload.day === day)) return;
    let text: string;
    try {
      text = this.options.summarizer ? await this.options.summarizer(dayRecord(state, day)) : await offlineSummarizer(state)({ day, lines: [] });
    } catch {
      text = await offlineSummarizer(state)({ day, lines: [] });
    }
    await this.game.submit((s, at) => engine.recordDaySummary(s, { day, text: text.slice(0, engine.MAX_SUMMARY_LENGTH), at }));
  }
}
