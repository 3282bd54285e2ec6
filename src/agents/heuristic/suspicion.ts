import type { PlayerView, Rng, SeatView } from '../../game/index.ts';
import { getRole, isMafia } from '../../game/index.ts';
import { knownRoleRead, type Beliefs } from '../beliefs.ts';
import type { PublicRecord } from './reading.ts';
import { votingBlocs } from '../voting-blocs.ts';
import { consistentResults } from './role-guesses.ts';

export const NO_INFORMATION = 'no information yet';

interface Read {
  readonly seat: SeatView;
  suspicion: number;
  trust: number;
  /** The latest reasons, newest last; only three are kept. Made on the first reason: most reads have none. */
  reasons: string[] | null;
}

const clamp = (x: number) => (x < 0 ? 0 : x > 1 ? 1 : x);
const round2 = (x: number) => Math.round(x * 100) / 100;

/** The read of seat `id`: a table has a few seats, so a scan costs less than a map built per decision. */
function readOf(reads: readonly Read[], id: string): Read | undefined {
  for (const read of reads) if (read.seat.id === id) return read;
  return undefined;
}

// Module functions rather than closures: this runs for every decision of every seat.
function bump(reads: readonly Read[], id: string, by: number, reason: string): void {
  const read = readOf(reads, id);
  if (!read || read.seat.knownRole) return;
  read.suspicion = clamp(read.suspicion + by);
  const reasons = (read.reasons ??= []);
  if (reasons.length === 3) reasons.shift();
  reasons.push(reason);
}

/** Suspects `partner` a little if `unmasked` died and was revealed Mafia. */
function blocPartner(reads: readonly Read[], unmasked: string, partner: string): void {
  const seat = readOf(reads, unmasked)?.seat;
  if (seat && !seat.alive && seat.knownRole && isMafia(seat.knownRole)) bump(reads, partner, 0.1, `voted with ${seat.name}`);
}

// A game's role list is one array its views share: counted once, not every decision.
let countedRoles: readonly string[] | null = null;
let countedMafia = 0;

function mafiaInPlay(view: PlayerView): number {
  if (view.rolesInPlay === countedRoles) return countedMafia;
  let n = 0;
  for (const role of view.rolesInPlay) if (getRole(role).faction === 'mafia') n++;
  countedRoles = view.rolesInPlay;
  countedMafia = n;
  return n;
}

/** The reason text of one read: its reasons joined, at most 200 characters. */
function reasonOf(reasons: readonly string[] | null): string {
  if (reasons === null || reasons.length === 0) return NO_INFORMATION;
  // Concatenated, not joined: at most three, and join is a runtime call (every read of every decision).
  let text = reasons[0] as string;
  for (let i = 1; i < reasons.length; i++) text += `; ${reasons[i] as string}`;
  return text.length > 200 ? text.slice(0, 200) : text;
}

/**
 * A town-minded read of every other seat, built only from what the viewer knows:
 * its own role and results, revealed roles, role claims, votes and night kills.
 */
export function readSuspicion(view: PlayerView, record: PublicRecord, rng: Rng): Beliefs {
  const me = view.me;
  const reads: Read[] = [];
  let unknown = 0;
  let mafiaKnownDead = 0;
  for (const s of view.seats) {
    if (s.id === me.id) continue;
    if (s.knownRole === null) unknown++;
    else if (!s.alive && isMafia(s.knownRole)) mafiaKnownDead++;
  }
  const prior = clamp((mafiaInPlay(view) - mafiaKnownDead) / Math.max(1, unknown));
  const godfatherInPlay = view.rolesInPlay.includes('godfather');

  for (const s of view.seats) {
    if (s.id === me.id) continue;
    const read: Read = { seat: s, suspicion: prior, trust: 0.5, reasons: null };
    if (s.knownRole) {
      const known = knownRoleRead(s.knownRole, me.role);
      read.suspicion = known.suspicion;
      read.trust = known.trust;
      read.reasons = [known.reason];
    }
    reads.push(read);
  }

  for (const inv of view.investigations) {
    const read = readOf(reads, inv.targetId);
    if (!read) continue;
    read.suspicion = inv.result === 'mafia' ? 1 : godfatherInPlay ? 0.1 : 0;
    (read.reasons ??= []).push(`my investigation: ${inv.result}`);
  }

  // A claim whose results a known role disproves is a lie: it neither contests the others nor counts.
  let detectiveClaims = 0;
  for (const [claimer, role] of record.claims)
    if (role === 'detective' && (claimer === me.id || consistentResults(view, record, claimer))) detectiveClaims++;
  for (const [claimer, role] of record.claims) {
    if (role !== 'detective' || claimer === me.id) continue;
    if (me.role === 'detective') {
      bump(reads, claimer, 0.6, 'claims my role, Detective');
      continue;
    }
    if (!consistentResults(view, record, claimer)) {
      bump(reads, claimer, 0.4, 'Detective results proven false');
      continue;
    }
    const contested = detectiveClaims > 1;
    if (contested) bump(reads, claimer, 0.15, 'Detective claim is contested');
    const weight = contested ? 0.2 : 0.45;
    const claimerName = readOf(reads, claimer)?.seat.name ?? 'someone';
    for (const [target, result] of record.claimedResults.get(claimer) ?? []) {
      if (target === me.id) {
        // A "Mafia" result on me proves the claimer lies (I know I am not Mafia).
        if (result === 'mafia' && !isMafia(me.role)) bump(reads, claimer, 0.7, 'called me Mafia, a lie');
        continue;
      }
      bump(reads, target, result === 'mafia' ? weight : -weight / 2, `${claimerName} says ${result}`);
    }
  }

  for (const round of record.votes) {
    if (!round.lynchedId) continue;
    const lynchedRole = readOf(reads, round.lynchedId)?.seat.knownRole;
    if (!lynchedRole) continue;
    const wasMafia = isMafia(lynchedRole);
    for (const [voter, target] of round.ballots) {
      if (target === round.lynchedId) {
        bump(reads, voter, wasMafia ? -0.1 : 0.12, wasMafia ? 'helped lynch Mafia' : 'helped lynch town');
      } else if (wasMafia) bump(reads, voter, 0.08, 'voted away from a Mafia lynch');
    }
  }

  // A bloc partner of a player revealed as Mafia on death voted with the Mafia day after day.
  for (const bloc of votingBlocs(record.votes)) {
    blocPartner(reads, bloc.players[0], bloc.players[1]);
    blocPartner(reads, bloc.players[1], bloc.players[0]);
  }

  // The Mafia kill the players who hunt them: whoever a victim accused gains a little suspicion.
  for (const victim of record.nightKills) {
    const accused = record.accusations.get(victim);
    if (!accused) continue;
    const reason = `accused by ${readOf(reads, victim)?.seat.name ?? 'a victim'} before they died`;
    for (const id of accused) bump(reads, id, 0.06, reason);
  }

  const beliefs: Beliefs = {};
  for (const read of reads) {
    const noise = read.seat.alive && !read.seat.knownRole ? (rng.int(0, 100) - 50) / 1000 : 0;
    beliefs[read.seat.id] = {
      suspicion: round2(clamp(read.suspicion + noise)),
      trust: read.seat.knownRole ? read.trust : round2(clamp(read.trust - read.suspicion / 2 + 0.25)),
      reason: reasonOf(read.reasons),
    };
  }
  return beliefs;
}
