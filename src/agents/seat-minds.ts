import * as engine from '../game/index.ts';
import type { GameState, PlayerState } from '../game/index.ts';
import { createRng } from '../game/index.ts';
import type { AsyncBrain, Decision, DecisionKind, DecisionRequest } from './decision.ts';
import { safeDecision } from './heuristic/brain.ts';
import { memoryFacts } from './player/memory.ts';
import type { MindStore, SeatMind, TableSeat } from './table.ts';

/**
 * The AI seats of one game: their brains and minds, and how a decision is asked for.
 * Shared by the all-AI table and the live driver, so both build requests the same way.
 */
export class SeatMinds {
  private readonly brains = new Map<string, AsyncBrain>();
  private readonly minds = new Map<string, SeatMind>();
  private readonly lastSeen = new Map<string, number>();

  constructor(
    seats: readonly TableSeat[],
    private readonly store?: MindStore,
  ) {
    for (const seat of seats) this.brains.set(seat.id, seat.brain);
  }

  has(playerId: string): boolean {
    return this.brains.has(playerId);
  }

  /** Reloads minds saved by an earlier process. */
  async load(gameId: string): Promise<void> {
    if (!this.store) return;
    for (const [id, mind] of Object.entries(await this.store.load(gameId))) this.minds.set(id, mind);
  }

  request(state: GameState, player: PlayerState, kind: DecisionKind): DecisionRequest {
    const view = engine.viewFor(state, player.id)!;
    const targets =
      kind === 'night' || kind === 'mafia_chat'
        ? engine.legalNightTargets(state, player.id)
        : kind === 'vote'
          ? engine.legalVoteTargets(state, player.id)
          : [];
    // Facts are derived from the view; they are worked out here only when they must be stored.
    const memory = this.store ? memoryFacts(view) : undefined;
    return {
      kind,
      view,
      targets: targets.map((t) => ({ id: t.id, name: t.name })),
      allowSkip: kind === 'vote' ? state.settings.rules.allowNoLynch : kind === 'night' || kind === 'mafia_chat',
      beliefs: this.minds.get(player.id)?.beliefs ?? {},
      ...(memory && { memory }),
      sinceSeq: this.lastSeen.get(player.id) ?? 0,
    };
  }

  /** Asks the seat's brain; never throws (a failing brain yields the safe default), and saves the mind. */
  async decide(state: GameState, player: PlayerState, kind: DecisionKind): Promise<Decision> {
    const request = this.request(state, player, kind);
    this.lastSeen.set(player.id, state.log.length);
    const brain = this.brains.get(player.id);
    // Keyed by what the game holds (not by a per-process counter or random ids), so the same game
    // with the same inputs plays out the same, also across a restart.
    const rng = createRng(state.seed, 'brain', player.seat, kind, state.log.length);
    let decision: Decision;
    try {
      decision = brain ? await brain(request, rng) : safeDecision(request, 'no brain for this seat');
    } catch (error) {
      decision = safeDecision(request, error instanceof Error ? error.message : String(error));
    }
    const mind = { beliefs: decision.beliefs, memory: request.memory ?? [] };
    this.minds.set(player.id, mind);
    await this.store?.save(state.id, player.id, mind);
    return decision;
  }
}
