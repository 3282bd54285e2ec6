import { isMafia, type PlayerView } from '../../game/index.ts';
import { knownRoleRead, type Beliefs } from '../beliefs.ts';

/** The reason of a read the seat has not made yet: the table's odds stand in for it. */
export const NO_READ = 'no read yet';

/**
 * What a seat knows of every other living player before it forms a read: roles it knows (a
 * teammate, a revealed role, its own investigation) as certainties, everyone else at the odds of
 * the Mafia still hidden among the seats it cannot place.
 */
function priorBeliefs(view: PlayerView): Beliefs {
  const others = view.seats.filter((s) => s.id !== view.me.id);
  const mafiaInPlay = view.rolesInPlay.filter((r) => isMafia(r)).length;
  const mafiaPlaced = others.filter((s) => s.knownRole !== null && isMafia(s.knownRole)).length;
  const unplaced = others.filter((s) => s.knownRole === null).length;
  const odds = Math.round(Math.min(1, Math.max(0, (mafiaInPlay - mafiaPlaced) / Math.max(1, unplaced))) * 100) / 100;
  // A Mafia seat knows its whole team, so everyone it cannot place is not Mafia.
  const unknown = isMafia(view.me.role) ? 0 : odds;
  const results = new Map(view.investigations.map((i) => [i.targetId, i.result]));
  const godfatherInPlay = view.rolesInPlay.includes('godfather');
  const beliefs: Beliefs = {};
  for (const s of others) {
    if (!s.alive) continue;
    const result = results.get(s.id);
    if (s.knownRole !== null) beliefs[s.id] = knownRoleRead(s.knownRole, view.me.role);
    else if (result !== undefined) {
      // The Godfather reads innocent: an innocent result is near-certain only when none is in play.
      beliefs[s.id] = {
        suspicion: result === 'mafia' ? 1 : godfatherInPlay ? 0.1 : 0,
        trust: result === 'mafia' ? 0 : 0.8,
        reason: `my investigation: ${result}`,
      };
    } else beliefs[s.id] = { suspicion: unknown, trust: 0.5, reason: NO_READ };
  }
  return beliefs;
}

/**
 * The seat's reads made complete: every living player it has no read on gets the prior (and a
 * prior seeded earlier is brought up to date), so a seat writes only the reads that changed and
 * its whole map still covers the table.
 */
export function withPriors(view: PlayerView, beliefs: Beliefs): Beliefs {
  const merged: Beliefs = { ...beliefs };
  for (const [id, prior] of Object.entries(priorBeliefs(view))) {
    const held = merged[id];
    if (held === undefined || held.reason === NO_READ) merged[id] = prior;
  }
  return merged;
}
