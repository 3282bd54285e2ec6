import * as engine from '../game/index.ts';
import type { GameState, PlayerState } from '../game/index.ts';
import { createRng } from '../game/index.ts';
import { must } from '../result.ts';
import type { Beliefs, VotingBloc } from './beliefs.ts';
import type { AsyncBrain, Brain, Decision, DecisionKind, DecisionRequest, Fallback } from './decision.ts';
import { heuristicBrain } from './heuristic/brain.ts';
import { memoryFacts } from './player/memory.ts';
import { votingBlocsOf } from './voting-blocs.ts';

/**
 * A decision's legal targets: of the night action, the vote, or (a speech in a trial day's
 * discussion) whom the seat may nominate or second; none for other speech.
 */
export function legalTargets(state: GameState, playerId: string, kind: DecisionKind): PlayerState[] {
  switch (kind) {
    case 'night':
    case 'mafia_chat':
      return engine.legalNightTargets(state, playerId);
    case 'vote':
      return engine.legalVoteTargets(state, playerId);
    case 'speak':
      return engine.legalNominees(state, playerId);
    case 'defense':
    case 'last_words':
      return [];
  }
}

/** An AI seat: who plays it, and the offline brain that stands in when its brain cannot answer in time. */
export interface AiSeat {
  readonly id: string;
  readonly name: string;
  readonly brain: AsyncBrain;
  /** Default: the heuristic brain under the seat's name. */
  readonly offline?: Brain;
  /** Told to the table once a game when the seat starts (a model it asked for and may not have). */
  readonly notice?: { readonly topic: string; readonly text: string };
}

/** A seat's mind between calls: beliefs it wrote (its reads and the voting blocs it saw), facts the engine gave it. */
export interface SeatMind {
  readonly beliefs: Beliefs;
  readonly memory: readonly string[];
  /** Absent in minds kept before blocs were. */
  readonly blocs?: readonly VotingBloc[];
}

/** Where minds persist, so a restarted process goes on with the same minds. */
export interface MindStore {
  load(gameId: string): Promise<Record<string, SeatMind>>;
  save(gameId: string, playerId: string, mind: SeatMind): Promise<void>;
}

/** When a decision is due, and the signal that fires then (or when the game no longer needs it). */
export interface DecisionTiming {
  readonly deadline?: number;
  readonly signal?: AbortSignal;
  /** The bot came back after the decision was due: the offline brain stands in at once, recorded as a `restart`. */
  readonly restarted?: boolean;
}

/**
 * The AI seats of one game: their brains and minds, and how a decision is asked for. A decision
 * is always made in time: when the signal fires first, the seat's offline brain decides at once
 * and the brain's late answer is dropped.
 */
export class AiSeats {
  private readonly seats = new Map<string, { brain: AsyncBrain; offline: Brain }>();
  private readonly minds = new Map<string, SeatMind>();
  private readonly lastSeen = new Map<string, number>();
  /** Minds of seats that decided at once, still being saved (in order, one after another). */
  private unsaved: Promise<void> | null = null;
  /** The last mind write started: the next one starts after it. */
  private writing: Promise<void> = Promise.resolve();

  constructor(
    seats: readonly AiSeat[],
    private readonly store?: MindStore,
  ) {
    for (const seat of seats)
      this.seats.set(seat.id, { brain: seat.brain, offline: seat.offline ?? heuristicBrain({ name: seat.name, phrases: [] }) });
  }

  has(playerId: string): boolean {
    return this.seats.has(playerId);
  }

  /** Whether the seat is played by its offline brain, which answers at once (`decide` then returns no promise). */
  answersAtOnce(playerId: string): boolean {
    const seat = this.seats.get(playerId);
    return seat === undefined || seat.brain === seat.offline;
  }

  /** Reloads minds saved by an earlier process. */
  async load(gameId: string): Promise<void> {
    if (!this.store) return;
    for (const [id, mind] of Object.entries(await this.store.load(gameId))) this.minds.set(id, mind);
  }

  beliefsOf(playerId: string): Beliefs {
    return this.minds.get(playerId)?.beliefs ?? {};
  }

  request(state: GameState, player: PlayerState, kind: DecisionKind): DecisionRequest {
    const view = must(engine.viewFor(state, player.id), `the view of seat ${player.id}`);
    const targets = legalTargets(state, player.id, kind);
    // Facts are derived from the view; they are worked out here only when they must be stored.
    const memory = this.store ? memoryFacts(view) : undefined;
    const blocs = this.store ? votingBlocsOf(view) : undefined;
    const options = targets.map((t) => ({ id: t.id, name: t.name }));
    const allowSkip = kind === 'vote' ? state.settings.rules.allowNoLynch : kind === 'night' || kind === 'mafia_chat' || kind === 'speak';
    const beliefs = this.beliefsOf(player.id);
    const sinceSeq = this.lastSeen.get(player.id) ?? 0;
    // Two literals rather than a spread of the optional field: a spread is built slowly, and this runs for every decision.
    return memory
      ? { kind, view, targets: options, allowSkip, beliefs, memory, blocs, sinceSeq }
      : { kind, view, targets: options, allowSkip, beliefs, sinceSeq };
  }

  /**
   * Asks the seat's brain; never throws and never waits past the timing's signal; keeps the mind.
   * A seat played by its offline brain answers at once, with no promise (a game asks hundreds of
   * times); its mind is saved behind it, in order (`takeSave`).
   */
  decide(state: GameState, player: PlayerState, kind: DecisionKind, timing: DecisionTiming = {}): Decision | Promise<Decision> {
    const request = this.request(state, player, kind);
    this.lastSeen.set(player.id, state.log.length);
    const seat = this.seats.get(player.id);
    if (seat?.brain !== seat?.offline) return this.ask(must(seat, 'a seat with a brain'), request, state, player, kind, timing);
    let decision: Decision;
    try {
      decision = seat
        ? seat.offline(request, brainRng(state, player, kind))
        : standIn(seat, request, state, player, kind, { category: 'provider_error', detail: 'no brain for this seat' });
    } catch (error) {
      decision = standIn(seat, request, state, player, kind, providerError(error));
    }
    this.unsaved = this.remember(state, player, request, decision) ?? this.unsaved;
    return decision;
  }

  /** The saves of minds decided at once since the last call (null when none): the driver tracks them. */
  takeSave(): Promise<void> | null {
    const unsaved = this.unsaved;
    this.unsaved = null;
    return unsaved;
  }

  private async ask(
    seat: { brain: AsyncBrain; offline: Brain },
    request: DecisionRequest,
    state: GameState,
    player: PlayerState,
    kind: DecisionKind,
    timing: DecisionTiming,
  ): Promise<Decision> {
    let decision: Decision;
    try {
      const signal = timing.signal;
      const timed: DecisionRequest = {
        ...request,
        ...(timing.deadline !== undefined && { deadline: timing.deadline }),
        ...(signal && { signal }),
      };
      decision = timing.restarted
        ? standIn(seat, request, state, player, kind, { category: 'restart', detail: 'the bot restarted after this move was due' })
        : signal?.aborted
          ? standIn(seat, request, state, player, kind, { category: 'timeout', detail: 'no time was left to ask the model' })
          : await beforeAbort(seat.brain(timed, brainRng(state, player, kind)), signal, () =>
              standIn(seat, request, state, player, kind, { category: 'timeout', detail: 'no answer before the deadline' }),
            );
    } catch (error) {
      decision = standIn(seat, request, state, player, kind, providerError(error));
    }
    await this.remember(state, player, request, decision);
    return decision;
  }

  /**
   * Keeps the seat's mind, and with a store writes it after every write before it (so an older mind
   * never lands over a newer one). A stand-in decision keeps the seat's own reads: the offline
   * brain's are not the model's.
   */
  private remember(state: GameState, player: PlayerState, request: DecisionRequest, decision: Decision): Promise<void> | undefined {
    const keep = decision.fallback !== undefined && Object.keys(request.beliefs).length > 0;
    const mind = { beliefs: keep ? request.beliefs : decision.beliefs, memory: request.memory ?? [], blocs: request.blocs ?? [] };
    this.minds.set(player.id, mind);
    const store = this.store;
    if (!store) return undefined;
    // A failed write does not hold up the next: each is told to whoever waits for it.
    const write = this.writing.then(() => store.save(state.id, player.id, mind));
    this.writing = write.catch(() => undefined);
    return write;
  }

  /** The offline brain's move, without asking the seat's brain (a teammate backing a proposal, a second Mafia round). */
  offline(state: GameState, player: PlayerState, kind: DecisionKind): Decision {
    const seat = this.seats.get(player.id);
    const request = this.request(state, player, kind);
    return (seat?.offline ?? heuristicBrain())(request, createRng(state.seed, 'offline', player.seat, kind, state.log.length));
  }
}

/**
 * The seat's random source for one decision: keyed by what the game holds (not by a per-process
 * counter or random ids), so the same game with the same inputs plays out the same, also across a
 * restart. A module function, not a closure per decision: tsx names every closure it makes.
 */
function brainRng(state: GameState, player: PlayerState, kind: DecisionKind) {
  return createRng(state.seed, 'brain', player.seat, kind, state.log.length);
}

function providerError(error: unknown): Fallback {
  return { category: 'provider_error', detail: error instanceof Error ? error.message : String(error) };
}

/** The offline brain's decision in place of the seat's brain, saying why. */
function standIn(
  seat: { readonly offline: Brain } | undefined,
  request: DecisionRequest,
  state: GameState,
  player: PlayerState,
  kind: DecisionKind,
  fallback: Fallback,
): Decision {
  return { ...(seat?.offline ?? heuristicBrain())(request, brainRng(state, player, kind)), fallback };
}

/** The work's result, or `instead()` the moment the signal fires first; a late result or failure is dropped. */
function beforeAbort<T>(work: T | Promise<T>, signal: AbortSignal | undefined, instead: () => T): Promise<T> {
  if (!(work instanceof Promise)) return Promise.resolve(work);
  if (!signal) return work;
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.resolve(instead());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => resolve(instead());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
