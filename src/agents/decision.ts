import type { PlayerView, Rng } from '../game/index.ts';
import type { Beliefs } from './beliefs.ts';

/** The moments a seat is asked to act; nothing else ever calls a player (no passive listening). */
export type DecisionKind = 'night' | 'vote' | 'speak' | 'mafia_chat' | 'last_words' | 'will';

export interface TargetOption {
  readonly id: string;
  readonly name: string;
}

export interface DecisionRequest {
  readonly kind: DecisionKind;
  readonly view: PlayerView;
  /** Exactly the legal targets (night action or vote); empty for speech. */
  readonly targets: readonly TargetOption[];
  /** Night: skipping is allowed. Vote: "no lynch" is allowed. */
  readonly allowSkip: boolean;
  /** The beliefs this seat wrote last time, if any. */
  readonly beliefs: Beliefs;
  /** Engine-written facts this seat remembers (kills, protections, results). */
  readonly memory?: readonly string[];
  /** Log position of this seat's previous decision: events after it are "new since your last turn". */
  readonly sinceSeq?: number;
}

export interface Decision {
  /** Night: a player id or null (skip). Vote: a player id or 'no_lynch'. Speech: null. */
  readonly targetId: string | null;
  /** What the seat says in public (or in the Mafia thread, or as its will), if anything. */
  readonly speech: string | null;
  /** Private: never shown to other players, kept for the director's cut. */
  readonly reasoning: string;
  readonly beliefs: Beliefs;
  /** 0–4: how much the seat wants the next speaking turn. */
  readonly urgency: number;
  /** Set when the offline brain decided instead of the seat's LLM, with the reason. */
  readonly fallback?: string;
}

/** Personal touches a persona lends to template speech. */
export interface Voice {
  readonly name: string;
  readonly phrases: readonly string[];
}

export type Brain = (request: DecisionRequest, rng: Rng) => Decision;

/** A brain that may think over the network (an LLM seat); the offline brain fits too. */
export type AsyncBrain = (request: DecisionRequest, rng: Rng) => Decision | Promise<Decision>;
