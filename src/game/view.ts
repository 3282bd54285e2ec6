import type { GameEvent, Outcome, Visibility } from './events.ts';
import { isMafia, type RoleId } from './roles/registry.ts';
import type { Rules } from './settings.ts';
import { perGame } from './per-game.ts';
import { findPlayer, type GameState, type Phase, type PlayerId, type PlayerState, type TrialState, type VoteTarget } from './state.ts';

export interface SeatView {
  readonly id: PlayerId;
  readonly name: string;
  readonly seat: number;
  readonly kind: 'human' | 'ai';
  readonly alive: boolean;
  /** Known to this viewer: announced on death, a teammate's, one's own, or all at the end. */
  readonly knownRole: RoleId | null;
}

interface Investigation {
  readonly night: number;
  readonly targetId: PlayerId;
  readonly result: 'mafia' | 'innocent';
}

/** Everything one player may know. Prompts and DMs are built from this and nothing else. */
export interface PlayerView {
  readonly gameId: string;
  readonly me: {
    readonly id: PlayerId;
    readonly name: string;
    readonly seat: number;
    readonly role: RoleId | null;
    readonly alive: boolean;
    readonly will: string | null;
  };
  readonly phase: Phase;
  readonly day: number;
  readonly deadline: number | null;
  readonly rules: Rules;
  /** The public role list of this game (who holds which is secret). */
  readonly rolesInPlay: readonly RoleId[];
  readonly seats: readonly SeatView[];
  readonly teammates: readonly { readonly id: PlayerId; readonly name: string; readonly role: RoleId }[];
  readonly investigations: readonly Investigation[];
  /** Current votes, which are public. */
  readonly votes: Readonly<Record<PlayerId, VoteTarget>>;
  /** A trial day's nominations and whose defense it is, which are public. */
  readonly trial: TrialState;
  /** The events this player could have witnessed, in order. */
  readonly events: readonly GameEvent[];
  readonly outcome: Outcome | null;
}

function canSee(visibility: Visibility, viewerId: PlayerId, viewerIsMafia: boolean): boolean {
  switch (visibility.kind) {
    case 'public':
      return true;
    case 'team':
      return viewerIsMafia;
    case 'player':
      return visibility.playerId === viewerId;
    case 'director':
      return false;
  }
}

/**
 * What one viewer has seen of a game's log so far. A game's views are asked for again and again as
 * its log grows (every AI decision, every will), so each viewer's visible events and what they tell
 * are kept and read on from where they stopped, not from the start: once the log is known to begin
 * with the entries read (the same event objects: comparing them is cheap, reading them is not).
 */
interface Seen {
  /** The log last read, and how many of its entries. */
  source: readonly GameEvent[];
  scanned: number;
  /** Whether it was read as a Mafia member sees (team events); a seat's role never changes, but a lobby seat had none. */
  readonly mafia: boolean;
  /**
   * The lists below are handed to views as they are, and a view stays as it was made: a list
   * handed out is copied before it grows (so views of one state share them, and a view costs no
   * copy of the events unless some came since the last one).
   */
  events: GameEvent[];
  eventsShared: boolean;
  readonly known: Map<PlayerId, RoleId>;
  rolesInPlay: RoleId[];
  investigations: Investigation[];
  investigationsShared: boolean;
  /** The seats last handed out, and the players they were made from (null once `known` has grown since). */
  seats: SeatView[] | null;
  seatsOf: readonly PlayerState[] | null;
}

// Each game's viewers, kept with the game.
const SEEN = Symbol('viewers seen');
const newViewers = () => new Map<PlayerId, Seen>();

function seenBy(log: readonly GameEvent[], viewerId: PlayerId, mafia: boolean): Seen {
  const first = log[0];
  const viewers = first && perGame(first, SEEN, newViewers);
  let seen = viewers?.get(viewerId);
  if (!seen || seen.mafia !== mafia || !continues(log, seen)) {
    seen = {
      source: log,
      scanned: 0,
      mafia,
      events: [],
      eventsShared: false,
      known: new Map(),
      rolesInPlay: [],
      investigations: [],
      investigationsShared: false,
      seats: null,
      seatsOf: null,
    };
    viewers?.set(viewerId, seen);
  }
  return seen;
}

/** Whether `log` begins with the entries `seen` read (a log only grows, but a caller may build another from the same events). */
function continues(log: readonly GameEvent[], seen: Seen): boolean {
  const { source, scanned } = seen;
  if (scanned > log.length) return false;
  if (source === log) return true;
  for (let i = 0; i < scanned; i++) if (log[i] !== source[i]) return false;
  return true;
}

function readOn(seen: Seen, log: readonly GameEvent[], viewerId: PlayerId): void {
  for (let i = seen.scanned; i < log.length; i++) {
    const e = log[i] as GameEvent;
    if (!canSee(e.visibility, viewerId, seen.mafia)) continue;
    if (seen.eventsShared) {
      seen.events = seen.events.slice();
      seen.eventsShared = false;
    }
    seen.events.push(e);
    const { known } = seen;
    if (e.type === 'player_died' && e.payload.role) known.set(e.payload.playerId, e.payload.role);
    else if (e.type === 'role_assigned') known.set(e.payload.playerId, e.payload.role);
    else if (e.type === 'mafia_team') for (const m of e.payload.members) known.set(m.playerId, m.role);
    else if (e.type === 'game_ended') for (const [id, role] of Object.entries(e.payload.roles)) known.set(id, role);
    else if (e.type === 'game_started') seen.rolesInPlay = e.payload.roles;
    else if (e.type === 'investigation_result') {
      if (seen.investigationsShared) {
        seen.investigations = seen.investigations.slice();
        seen.investigationsShared = false;
      }
      seen.investigations.push({ night: e.payload.night, targetId: e.payload.targetId, result: e.payload.result });
      continue;
    } else continue;
    seen.seats = null;
  }
  seen.source = log;
  seen.scanned = log.length;
}

function teammatesOf(state: GameState, meId: PlayerId): PlayerView['teammates'] {
  const out: { id: PlayerId; name: string; role: RoleId }[] = [];
  for (const p of state.players)
    if (p.id !== meId && p.role !== null && isMafia(p.role)) out.push({ id: p.id, name: p.name, role: p.role });
  return out;
}

/** The single gate for information: what `playerId` may know of `state`. */
export function viewFor(state: GameState, playerId: PlayerId): PlayerView | null {
  const me = findPlayer(state, playerId);
  if (!me) return null;
  const mafia = isMafia(me.role);
  const seen = seenBy(state.log, me.id, mafia);
  readOn(seen, state.log, me.id);

  return {
    gameId: state.id,
    me: { id: me.id, name: me.name, seat: me.seat, role: me.role, alive: me.alive, will: me.will },
    phase: state.phase,
    day: state.day,
    deadline: state.deadline,
    rules: state.settings.rules,
    rolesInPlay: seen.rolesInPlay,
    seats: seatsSeen(seen, state.players),
    teammates: mafia ? teammatesOf(state, me.id) : [],
    investigations: share(seen, 'investigations'),
    votes: state.votes,
    trial: state.trial,
    events: share(seen, 'events'),
    outcome: state.outcome,
  };
}

/** A kept list for a view: marked so that it is copied before it next grows. */
function share<K extends 'events' | 'investigations'>(seen: Seen, list: K): Seen[K] {
  if (list === 'events') seen.eventsShared = true;
  else seen.investigationsShared = true;
  return seen[list];
}

/** The table as this viewer knows it: made again only when the players or what the viewer knows changed. */
function seatsSeen(seen: Seen, players: readonly PlayerState[]): SeatView[] {
  if (seen.seats !== null && seen.seatsOf === players) return seen.seats;
  const { known } = seen;
  const seats: SeatView[] = [];
  for (const p of players)
    seats.push({ id: p.id, name: p.name, seat: p.seat, kind: p.kind, alive: p.alive, knownRole: known.get(p.id) ?? null });
  seen.seats = seats;
  seen.seatsOf = players;
  return seats;
}
