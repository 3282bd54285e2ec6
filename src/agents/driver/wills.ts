import { getRole, isMafia, MAX_WILL_LENGTH, type PlayerView } from '../../game/index.ts';
import type { Beliefs } from '../beliefs.ts';

const READS = 2;

/**
 * A seat's will, written from what it knows and believes, with no model call: a power role's
 * results and actions (what a will is for), then its top reads with their reasons. The Mafia claim
 * Townsperson only while roles stay hidden on death: a claim the reveal would contradict at the
 * very moment the will is read helps nobody.
 */
export function willFor(view: PlayerView, beliefs: Beliefs): string {
  // Built with plain loops: a will is written for every living AI seat every day.
  const names = new Map<string, string>();
  const living = new Set<string>();
  for (const s of view.seats) {
    names.set(s.id, s.name);
    if (s.alive) living.add(s.id);
  }
  const role = view.me.role;
  const parts: string[] = [];
  if (role === 'detective') {
    const results = view.investigations.map(
      (i) => `night ${i.night}: ${nameIn(names, i.targetId)} is ${i.result === 'mafia' ? 'Mafia' : 'innocent'}`,
    );
    parts.push(`Detective. ${results.length > 0 ? `${results.join('; ')}.` : 'No results yet.'}`);
  } else if (role === 'doctor' || role === 'vigilante') {
    const verb = role === 'doctor' ? 'Protected' : 'Shot at';
    const acts = actionsOf(view).map((a) => `${nameIn(names, a.targetId)} (night ${a.night})`);
    parts.push(`${getRole(role).name}. ${verb}: ${acts.length > 0 ? acts.join(', ') : 'nobody yet'}.`);
  } else if (isMafia(role) || role === 'jester') {
    parts.push(view.rules.revealRoleOnDeath ? 'My last reads.' : 'Townsperson.');
  } else {
    parts.push(`${role ? getRole(role).name : 'Town'}.`);
  }
  const team = new Set<string>([view.me.id]);
  for (const t of view.teammates) team.add(t.id);
  const suspects: [string, Beliefs[string]][] = [];
  // Only real suspects: a read at or below even odds says nothing worth leaving behind.
  for (const entry of Object.entries(beliefs))
    if (living.has(entry[0]) && !team.has(entry[0]) && entry[1].suspicion > 0.5) suspects.push(entry);
  const reads = suspects
    .sort(([a, x], [b, y]) => y.suspicion - x.suspicion || a.localeCompare(b))
    .slice(0, READS)
    // A Mafia seat's reasons are written knowing the team: only the names go into its will.
    .map(([id, b]) =>
      isMafia(role) ? nameIn(names, id) : `${nameIn(names, id)} ${Math.round(b.suspicion * 100)}% (${b.reason.trim().slice(0, 80)})`,
    );
  if (reads.length > 0) parts.push(`Suspects: ${reads.join('; ')}.`);
  const will = parts.join(' ');
  return will.length <= MAX_WILL_LENGTH ? will : `${will.slice(0, MAX_WILL_LENGTH - 1)}…`;
}

function nameIn(names: ReadonlyMap<string, string>, id: string): string {
  return names.get(id) ?? 'someone';
}

function actionsOf(view: PlayerView): { night: number; targetId: string }[] {
  const out: { night: number; targetId: string }[] = [];
  let night = 0;
  for (const e of view.events) {
    if (e.type === 'phase_started' && e.payload.phase === 'night') night = e.payload.day;
    else if (e.type === 'night_action' && e.payload.actorId === view.me.id && e.payload.targetId)
      out.push({ night, targetId: e.payload.targetId });
  }
  return out;
}
