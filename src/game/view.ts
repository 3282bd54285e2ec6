import type { GameEvent, Outcome, Visibility } from './events.ts';
import { isMafia, type RoleId } from './roles/registry.ts';
import type { Rules } from './settings.ts';
import { findPlayer, type GameState, type Phase, type PlayerId, type VoteTarget } from './state.ts';

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

/** The single gate for information: what `playerId` may know of `state`. */
export function viewFor(state: GameState, playerId: PlayerId): PlayerView | null {
  const me = findPlayer(state, playerId);
  if (!me) return null;
  const mafia = isMafia(me.role);
  const events: GameEvent[] = [];
  for (const e of state.log) if (canSee(e.visibility, me.id, mafia)) events.push(e);

  const known = new Map<PlayerId, RoleId>();
  let rolesInPlay: RoleId[] = [];
  const investigations: Investigation[] = [];
  for (const e of events) {
    if (e.type === 'player_died' && e.payload.role) known.set(e.payload.playerId, e.payload.role);
    else if (e.type === 'role_assigned') known.set(e.payload.playerId, e.payload.role);
    else if (e.type === 'mafia_team') for (const m of e.payload.members) known.set(m.playerId, m.role);
    else if (e.type === 'game_ended') for (const [id, role] of Object.entries(e.payload.roles)) known.set(id, role);
    else if (e.type === 'game_started') rolesInPlay = e.payload.roles;
    else if (e.type === 'investigation_result') {
      investigations.push({ night: e.payload.night, targetId: e.payload.targetId, result: e.payload.result });
    }
  }

  return {
    gameId: state.id,
    me: { id: me.id, name: me.name, seat: me.seat, role: me.role, alive: me.alive, will: me.will },
    phase: state.phase,
    day: state.day,
    deadline: state.deadline,
    rules: state.settings.rules,
    rolesInPlay,
    seats: state.players.map((p) => ({
      id: p.id,
      name: p.name,
      seat: p.seat,
      kind: p.kind,
      alive: p.alive,
      knownRole: known.get(p.id) ?? null,
    })),
    teammates: mafia
      ? state.players.flatMap((p) =>
          p.id !== me.id && p.role !== null && isMafia(p.role) ? [{ id: p.id, name: p.name, role: p.role }] : [],
        )
      : [],
    investigations,
    votes: state.votes,
    events,
    outcome: state.outcome,
  };
}
