import * as engine from '../game/index.ts';
import type { CommandResult, GameState, PlayerState, SettingsInput } from '../game/index.ts';
import { createRng } from '../game/index.ts';
import type { Beliefs } from './beliefs.ts';
import type { Brain, Decision, DecisionKind, DecisionRequest } from './decision.ts';
import { safeDecision } from './heuristic/brain.ts';

export interface AutoSeat {
  readonly id: string;
  readonly name: string;
  readonly brain: Brain;
}

export interface AutoplayOptions {
  readonly gameId: string;
  readonly seed: number;
  readonly seats: readonly AutoSeat[];
  readonly settings?: SettingsInput;
  /** Epoch ms of the virtual clock's start; the same start gives the same event times. */
  readonly startAt?: number;
  /** Record each decision's private reasoning in the log (for the director's cut). */
  readonly recordReasoning?: boolean;
}

export type AutoplayResult = { ok: true; state: GameState } | { ok: false; error: string };

/** Hard stop for a bug that would loop forever; real games end long before. */
const MAX_STEPS = 20_000;

/**
 * Plays a whole game with every seat driven by its brain, on a virtual clock:
 * phases that wait for people jump straight to their deadline.
 */
export function playOfflineGame(options: AutoplayOptions): AutoplayResult {
  const table = new OfflineTable(options);
  return table.run();
}

class OfflineTable {
  private state: GameState;
  private clock: number;
  private readonly brains = new Map<string, Brain>();
  private readonly beliefs = new Map<string, Beliefs>();
  private decisions = 0;
  /** How many private events each seat had seen when it last wrote its will. */
  private readonly willBasis = new Map<string, number>();

  constructor(private readonly options: AutoplayOptions) {
    this.clock = options.startAt ?? 0;
    for (const seat of options.seats) this.brains.set(seat.id, seat.brain);
    const created = engine.createGame({ gameId: options.gameId, seed: options.seed, settings: options.settings, at: this.clock });
    if (!created.ok) throw new Error(created.error.message);
    this.state = created.state;
  }

  run(): AutoplayResult {
    for (const seat of this.options.seats) {
      const joined = engine.join(this.state, { player: { id: seat.id, name: seat.name, kind: 'ai' }, at: this.clock });
      if (!joined.ok) return { ok: false, error: joined.error.message };
      this.state = joined.state;
    }
    const started = engine.start(this.state, { at: this.clock });
    if (!started.ok) return { ok: false, error: started.error.message };
    this.state = started.state;

    for (let step = 0; this.state.phase !== 'ended'; step++) {
      if (step > MAX_STEPS) throw new Error(`game ${this.options.gameId} did not end in ${MAX_STEPS} steps`);
      this.playPhase();
    }
    return { ok: true, state: this.state };
  }

  private playPhase(): void {
    const { phase, day } = this.state;
    if (phase === 'night') this.night();
    else if (phase === 'day') this.day();
    else if (phase === 'vote') this.vote();
    else if (phase === 'last_words') this.lastWords();
    // Whatever is left waits for its deadline.
    if (this.state.phase === phase && this.state.day === day && this.state.deadline !== null) {
      this.clock = Math.max(this.clock, this.state.deadline);
      this.apply(engine.advance(this.state, { at: this.clock }));
    }
  }

  private night(): void {
    // Two passes cover the Mafia's second round; every seat acts once per round.
    for (let pass = 0; pass < 2 && this.state.phase === 'night'; pass++) {
      for (const p of this.state.players) {
        if (this.state.phase !== 'night' || !engine.hasNightAction(this.state, p)) continue;
        const mafia = engine.isMafia(p.role);
        if (mafia ? p.id in this.state.night.proposals : p.id in this.state.night.actions) continue;
        const decision = this.ask(p, mafia ? 'mafia_chat' : 'night');
        if (mafia && decision.speech) this.tryApply(engine.speak(this.state, this.speech(p, 'mafia', decision.speech)));
        const acted = engine.act(this.state, { actorId: p.id, targetId: decision.targetId, at: this.tick() });
        this.applyOr(acted, () => engine.act(this.state, { actorId: p.id, targetId: null, at: this.clock }));
      }
    }
  }

  private day(): void {
    const living = () => this.state.players.filter((p) => p.alive);
    if (this.state.settings.rules.lastWills) {
      // A will only changes when the seat learned something privately (role, result, own action).
      const privateEvents = new Map<string, number>();
      for (const e of this.state.log) {
        if (e.visibility.kind !== 'player' || e.type === 'will_written') continue;
        privateEvents.set(e.visibility.playerId, (privateEvents.get(e.visibility.playerId) ?? 0) + 1);
      }
      for (const p of living()) {
        const known = privateEvents.get(p.id) ?? 0;
        if (this.willBasis.get(p.id) === known) continue;
        this.willBasis.set(p.id, known);
        const will = this.ask(p, 'will');
        if (will.speech) this.tryApply(engine.writeWill(this.state, { playerId: p.id, text: will.speech, at: this.clock }));
      }
    }
    // Everyone speaks once, starting a seat later each day; then the most urgent reply.
    const order = rotate(living(), this.state.day);
    const urgent: { player: PlayerState; urgency: number }[] = [];
    for (const p of order) {
      const decision = this.ask(p, 'speak');
      if (decision.speech) this.tryApply(engine.speak(this.state, this.speech(p, 'town', decision.speech)));
      if (decision.urgency >= 3) urgent.push({ player: p, urgency: decision.urgency });
    }
    for (const { player } of urgent.sort((a, b) => b.urgency - a.urgency).slice(0, 2)) {
      const decision = this.ask(player, 'speak');
      if (decision.speech) this.tryApply(engine.speak(this.state, this.speech(player, 'town', decision.speech)));
    }
  }

  private vote(): void {
    for (const p of this.state.players) {
      if (this.state.phase !== 'vote' || !p.alive) continue;
      const decision = this.ask(p, 'vote');
      const target = decision.targetId ?? 'no_lynch';
      const cast = engine.vote(this.state, { voterId: p.id, targetId: target, at: this.tick() });
      this.applyOr(cast, () => {
        const fallback = engine.legalVoteTargets(this.state, p.id)[0];
        return engine.vote(this.state, { voterId: p.id, targetId: fallback?.id ?? 'no_lynch', at: this.clock });
      });
    }
  }

  private lastWords(): void {
    const lynched = this.state.lynchedToday ? engine.findPlayer(this.state, this.state.lynchedToday) : undefined;
    if (!lynched) return;
    const decision = this.ask(lynched, 'last_words');
    if (decision.speech) this.tryApply(engine.speak(this.state, this.speech(lynched, 'last_words', decision.speech)));
  }

  private ask(player: PlayerState, kind: DecisionKind): Decision {
    const view = engine.viewFor(this.state, player.id)!;
    const targets =
      kind === 'night' || kind === 'mafia_chat'
        ? engine.legalNightTargets(this.state, player.id)
        : kind === 'vote'
          ? engine.legalVoteTargets(this.state, player.id)
          : [];
    const request: DecisionRequest = {
      kind,
      view,
      targets: targets.map((t) => ({ id: t.id, name: t.name })),
      allowSkip: kind === 'vote' ? this.state.settings.rules.allowNoLynch : kind === 'night' || kind === 'mafia_chat',
      beliefs: this.beliefs.get(player.id) ?? {},
    };
    const brain = this.brains.get(player.id);
    const rng = createRng(this.state.seed, 'brain', player.id, this.decisions++);
    const decision = brain ? brain(request, rng) : safeDecision(request, 'no brain for this seat');
    this.beliefs.set(player.id, decision.beliefs);
    if (this.options.recordReasoning ?? true) {
      const label = describeDecision(kind, decision, (id) => engine.findPlayer(this.state, id)?.name ?? id);
      this.tryApply(
        engine.recordReasoning(this.state, { playerId: player.id, decision: label, text: decision.reasoning, at: this.clock }),
      );
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
    if (!result.ok) throw new Error(`engine refused an autopilot move: ${result.error.message}`);
    this.state = result.state;
  }

  private tryApply(result: CommandResult): void {
    if (result.ok) this.state = result.state;
  }

  /** A brain's illegal choice falls back to a default move instead of stalling the game. */
  private applyOr(result: CommandResult, fallback: () => CommandResult): void {
    this.apply(result.ok ? result : fallback());
  }
}

function rotate<T>(items: readonly T[], by: number): T[] {
  if (items.length === 0) return [];
  const k = by % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

export function describeDecision(kind: DecisionKind, decision: Decision, name: (id: string) => string): string {
  const target = decision.targetId === 'no_lynch' ? 'no lynch' : decision.targetId ? name(decision.targetId) : 'nobody';
  switch (kind) {
    case 'night':
    case 'mafia_chat':
      return `night action → ${target}`;
    case 'vote':
      return `vote → ${target}`;
    case 'speak':
      return 'speech';
    case 'last_words':
      return 'last words';
    case 'will':
      return 'will';
  }
}
