import type { RoleId } from './roles/ids.ts';
import type { Settings } from './settings.ts';
import type { GameEvent, Outcome, PlayerKind, DeathCause } from './events.ts';

export type PlayerId = string;
/** `defense`: in a trial day, one nominee's turn to speak before the vote (`GameState.trial.defendant`). */
export type Phase = 'lobby' | 'night' | 'dawn' | 'day' | 'defense' | 'vote' | 'last_words' | 'ended';
/** A player's id, or 'no_lynch' (no player id takes that form). */
export type VoteTarget = PlayerId;

export interface PlayerState {
  readonly id: PlayerId;
  readonly name: string;
  readonly kind: PlayerKind;
  readonly userId: string | null;
  readonly personaId: string | null;
  /** 1-based, join order; fixed once the game starts. */
  readonly seat: number;
  readonly role: RoleId | null;
  readonly alive: boolean;
  readonly will: string | null;
  readonly death: { readonly cause: DeathCause; readonly day: number } | null;
}

interface NightAction {
  readonly targetId: PlayerId | null;
}

export interface NightState {
  /** Submitted actions of Doctors, Detectives, Vigilantes (null target = chose to skip). */
  readonly actions: Readonly<Record<PlayerId, NightAction>>;
  readonly mafiaRound: 1 | 2;
  /** Proposals of the current Mafia round. */
  readonly proposals: Readonly<Record<PlayerId, PlayerId | null>>;
  readonly mafiaDecision: { readonly targetId: PlayerId | null } | null;
}

/** A nomination of the day: it stands (puts its nominee on trial) once seconded, or at once when the rules need no second. */
export interface Nomination {
  readonly targetId: PlayerId;
  readonly nominatorId: PlayerId;
  readonly seconderIds: readonly PlayerId[];
  readonly standing: boolean;
}

/** A trial day's state (empty in an open day): today's nominations in the order made, and whose defense it is. */
export interface TrialState {
  readonly nominations: readonly Nomination[];
  /** The nominee speaking in the defense phase; null outside it. */
  readonly defendant: PlayerId | null;
}

export interface GameState {
  readonly id: string;
  readonly seed: number;
  readonly settings: Settings;
  readonly phase: Phase;
  /** Cycle number: night N is followed by day N. 0 in the lobby. */
  readonly day: number;
  /** Epoch ms when the phase times out, null when it never does (lobby, ended). */
  readonly deadline: number | null;
  readonly players: readonly PlayerState[];
  readonly night: NightState;
  readonly votes: Readonly<Record<PlayerId, VoteTarget>>;
  readonly trial: TrialState;
  /** Doctor id → whom they protected last night (for the repeat-protection rule). */
  readonly lastProtected: Readonly<Record<PlayerId, PlayerId | null>>;
  readonly shotsUsed: Readonly<Record<PlayerId, number>>;
  readonly lynchedToday: PlayerId | null;
  readonly jesterWinners: readonly PlayerId[];
  readonly outcome: Outcome | null;
  /** Every event so far, in order; `log.length` is the last sequence number. */
  readonly log: readonly GameEvent[];
}

export const EMPTY_TRIAL: TrialState = { nominations: [], defendant: null };

/** Today's nominees who stand accused, in the order they came to stand. */
export function nominees(state: Pick<GameState, 'trial'>): PlayerId[] {
  const out: PlayerId[] = [];
  for (const n of state.trial.nominations) if (n.standing) out.push(n.targetId);
  return out;
}

export const EMPTY_NIGHT: NightState = { actions: {}, mafiaRound: 1, proposals: {}, mafiaDecision: null };

export function findPlayer(state: GameState, id: PlayerId): PlayerState | undefined {
  // A loop, not find(): no closure for a call the rules make hundreds of times a game.
  for (const p of state.players) if (p.id === id) return p;
  return undefined;
}
