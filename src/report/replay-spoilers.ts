import { allRoles, isMafia, type GameEventOf, type GameState, type PlayerId } from '../game/index.ts';

const escape = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A word that names a role or a side: each role's name, the town, the Mafia, a team (and words that start so: townsperson, teammate). */
const ROLE_WORD = new RegExp(`\\b(?:${[...allRoles().map((r) => r.name), 'town', 'mafia', 'team'].map(escape).join('|')})`, 'i');

/**
 * Whether a seat's private text names a role or a side, once the players' names are taken out of it
 * (a persona may be called "Doctor Watson" without saying anything of a role).
 */
export function namesARole(text: string, names: readonly string[]): boolean {
  let rest = text;
  for (const name of names) if (name) rest = rest.split(name).join(' ');
  return ROLE_WORD.test(rest);
}

/**
 * The players whose role a seat knew in private when it decided (at log position `seq`): a Mafia
 * seat its team, a Detective those it investigated; a role revealed on death is public from then on.
 */
export function privatelyKnown(state: GameState): (seatId: PlayerId, seq: number) => Set<PlayerId> {
  const team = state.log.filter((e): e is GameEventOf<'mafia_team'> => e.type === 'mafia_team');
  const results = state.log.filter((e): e is GameEventOf<'investigation_result'> => e.type === 'investigation_result');
  const revealed = state.log.filter((e): e is GameEventOf<'player_died'> => e.type === 'player_died' && e.payload.role !== null);
  const mafia = new Set(state.players.filter((p) => isMafia(p.role)).map((p) => p.id));
  return (seatId, seq) => {
    const known = new Set<PlayerId>();
    for (const e of team)
      if (e.seq < seq && mafia.has(seatId)) for (const m of e.payload.members) if (m.playerId !== seatId) known.add(m.playerId);
    for (const e of results) if (e.seq < seq && e.payload.detectiveId === seatId) known.add(e.payload.targetId);
    for (const e of revealed) if (e.seq < seq) known.delete(e.payload.playerId);
    return known;
  };
}
