import type { PlayerView, RoleId, SeatView } from '../../game/index.ts';
import { isMafia } from '../../game/index.ts';
import type { Beliefs } from '../beliefs.ts';
import type { PublicRecord } from './reading.ts';

/** Suspicion from which a read becomes "likely Mafia". */
const LIKELY_MAFIA = 0.75;
/** A claimant the seat suspects this much is not believed. */
const DOUBTED = 0.6;

/** The seat's view of one player, by id: a table has a few seats, a scan is cheaper than a map. */
function seatOf(view: PlayerView, id: string): SeatView | undefined {
  for (const s of view.seats) if (s.id === id) return s;
  return undefined;
}

/**
 * Whether a Detective claim's results hold up against every role this seat knows (revealed on
 * death, its own team, its own investigations): a Mafia result must be Mafia-aligned, an innocent
 * one must not be (the Godfather reads innocent, so an innocent Godfather is no lie), and a Mafia
 * result on a seat that knows itself town is a lie.
 */
export function consistentResults(view: PlayerView, record: PublicRecord, claimer: string): boolean {
  for (const [target, result] of record.claimedResults.get(claimer) ?? []) {
    const role: RoleId | null = target === view.me.id ? view.me.role : (seatOf(view, target)?.knownRole ?? null);
    if (role === null) continue;
    if (result === 'mafia' ? !isMafia(role) : isMafia(role) && role !== 'godfather') return false;
  }
  for (const inv of view.investigations) {
    const said = record.claimedResults.get(claimer)?.get(inv.targetId);
    if (said !== undefined && said !== inv.result) return false;
  }
  return true;
}

/**
 * The role each living player likely holds, as far as the public record and this seat's own
 * knowledge tell (seed 001's "meta reads"), written into `beliefs` (the read made this decision):
 * a strong suspicion reads as likely Mafia (not for a Mafia seat, which knows its team); the one
 * believable claimant of a role as that role: a Detective claim also needs results that hold up,
 * and of several Detective claimants the least suspected one whose results hold up is the guess.
 * The seat's own team's claims are covers, not claims, and players whose role is known need no guess.
 */
export function guessRoles(view: PlayerView, record: PublicRecord, beliefs: Beliefs): void {
  const mafiaSeat = isMafia(view.me.role);
  if (record.claims.size > 0) guessClaims(view, record, beliefs, mafiaSeat);
  if (mafiaSeat) return;
  for (const s of view.seats) {
    const read = beliefs[s.id];
    if (read && s.alive && s.knownRole === null && read.suspicion >= LIKELY_MAFIA) read.roleGuess = 'mafia';
  }
}

// Module functions, not closures: this runs for every decision, and tsx names every closure it makes.
function suspicionIn(beliefs: Beliefs, id: string): number {
  return beliefs[id]?.suspicion ?? 0.5;
}

function believable(beliefs: Beliefs, id: string, mafiaSeat: boolean): boolean {
  return mafiaSeat || suspicionIn(beliefs, id) < DOUBTED;
}

/** The claimants of each role the seat can believe, and of several Detectives the one whose results hold up best. */
function guessClaims(view: PlayerView, record: PublicRecord, beliefs: Beliefs, mafiaSeat: boolean): void {
  const me = view.me;
  const claimants = new Map<RoleId, string[]>();
  for (const [id, role] of record.claims) {
    if (id === me.id || isMafia(role) || role === me.role) continue;
    if (mafiaSeat && view.teammates.some((t) => t.id === id)) continue;
    const seat = seatOf(view, id);
    if (!seat?.alive || seat.knownRole !== null) continue;
    const list = claimants.get(role);
    if (list) list.push(id);
    else claimants.set(role, [id]);
  }
  for (const [role, ids] of claimants) {
    let guessed: string | undefined;
    if (role === 'detective') {
      for (const id of ids)
        if (
          believable(beliefs, id, mafiaSeat) &&
          consistentResults(view, record, id) &&
          (guessed === undefined || suspicionIn(beliefs, id) < suspicionIn(beliefs, guessed))
        )
          guessed = id;
    } else if (ids.length === 1 && believable(beliefs, ids[0] as string, mafiaSeat)) guessed = ids[0];
    const read = guessed === undefined ? undefined : beliefs[guessed];
    if (read) read.roleGuess = role;
  }
}
