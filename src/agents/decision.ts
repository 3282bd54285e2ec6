import type { FallbackCategory, PlayerView, Rng } from '../game/index.ts';
import type { ModelSource } from '../llm/providers.ts';
import type { ProviderName } from '../llm/types.ts';
import type { Beliefs, VotingBloc } from './beliefs.ts';

/**
 * The moments a seat is asked to act; nothing else ever calls a player (no passive listening).
 * Wills are written from memory and beliefs without asking (`src/agents/driver/wills.ts`).
 */
export type DecisionKind = 'night' | 'vote' | 'speak' | 'defense' | 'mafia_chat' | 'last_words';

export interface TargetOption {
  readonly id: string;
  readonly name: string;
}

export interface DecisionRequest {
  readonly kind: DecisionKind;
  readonly view: PlayerView;
  /**
   * Exactly the legal targets: of the night action, the vote, or (a speech in a trial day's
   * discussion) whom the seat may nominate or second; empty for other speech.
   */
  readonly targets: readonly TargetOption[];
  /** Night: skipping is allowed. Vote: "no lynch" is allowed. */
  readonly allowSkip: boolean;
  /** The beliefs this seat wrote last time, if any. */
  readonly beliefs: Beliefs;
  /** Engine-written facts this seat remembers (kills, protections, results). */
  readonly memory?: readonly string[];
  /** The voting blocs this seat sees in the public tallies (worked out here only when minds are stored; else from the view). */
  readonly blocs?: readonly VotingBloc[];
  /** Log position of this seat's previous decision: events after it are "new since your last turn". */
  readonly sinceSeq?: number;
  /** Epoch ms (on the game's clock) by which the decision must be made; a model late for it is abandoned. */
  readonly deadline?: number;
  /** Fires at the deadline, or when the game no longer needs the decision. */
  readonly signal?: AbortSignal;
}

/** Why the offline brain decided instead of the seat's model, and the provider's words for the log only. */
export interface Fallback {
  readonly category: FallbackCategory;
  /** Never shown to players or in the director's cut: it may hold URLs, keys or response bodies. */
  readonly detail: string;
  /** The model its provider no longer serves (`model_unavailable`), and which level chose it. */
  readonly model?: SeatModel;
}

/** A seat's model and where it was chosen: what the host and the operator are told to change when it is gone. */
export interface SeatModel {
  readonly provider: ProviderName;
  readonly id: string;
  readonly source: ModelSource;
}

export interface Decision {
  /** Night: a player id or null (skip). Vote: a player id or 'no_lynch'. Speech: whom it nominates or seconds in a trial day, else null. */
  readonly targetId: string | null;
  /** What the seat says in public (or in the Mafia thread, or as its will), if anything. */
  readonly speech: string | null;
  /** Private: never shown to other players, kept for the director's cut. */
  readonly reasoning: string;
  readonly beliefs: Beliefs;
  /** 0–4: how much the seat wants the next speaking turn. */
  readonly urgency: number;
  /** Set when the offline brain decided instead of the seat's model. */
  readonly fallback?: Fallback;
  /** The tools the seat called while it reasoned, for the director's cut and the replay. */
  readonly toolCalls?: readonly SeatToolCall[];
}

/** One tool call of a seat, as text: what it asked and what it was told. */
export interface SeatToolCall {
  readonly name: string;
  readonly input: string;
  readonly output: string;
}

/** Personal touches a persona lends to template speech. */
export interface Voice {
  readonly name: string;
  readonly phrases: readonly string[];
}

export type Brain = (request: DecisionRequest, rng: Rng) => Decision;

/** A brain that may think over the network (an LLM seat); the offline brain fits too. */
export type AsyncBrain = (request: DecisionRequest, rng: Rng) => Decision | Promise<Decision>;
