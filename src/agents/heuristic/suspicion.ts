import type { PlayerView, Rng } from '../../game/index.ts';
import { getRole, isMafia } from '../../game/index.ts';
import type { Beliefs } from '../beliefs.ts';
import type { PublicRecord } from './reading.ts';

interface Read {
  suspicion: number;
  trust: number;
  reasons: string[];
}

export const NO_INFORMATION = 'no information yet';

const clamp = (x: number) => Math.min(1, Math.max(0, x));
const round2 = (x: number) => Math.round(x * 100) / 100;

/**
 * A town-minded read of every other seat, built only from what the viewer knows:
 * its own role and results, revealed roles, role claims, votes and night kills.
 */
export function readSuspicion(view: PlayerView, record: PublicRecord, rng: Rng): Beliefs {
  const me = view.me;
  const seats = new Map(view.seats.map((s) => [s.id, s]));
  const names = new Map(view.seats.map((s) => [s.id, s.name]));
  const unknown = view.seats.filter((s) => s.id !== me.id && s.knownRole === null);
  const mafiaInPlay = view.rolesInPlay.filter((r) => getRole(r).faction === 'mafia').length;
  const mafiaKnownDead = view.seats.filter((s) => !s.alive && isMafia(s.knownRole)).length;
  const prior = clamp((mafiaInPlay - mafiaKnownDead) / Math.max(1, unknown.length));
  const godfatherInPlay = view.rolesInPlay.includes('godfather');

  const reads = new Map<string, Read>();
  for (const s of view.seats) {
    if (s.id === me.id) continue;
    const known = s.knownRole;
    const read: Read = { suspicion: prior, trust: 0.5, reasons: [] };
    if (known) {
      read.suspicion = isMafia(known) ? 1 : 0;
      read.trust = isMafia(known) ? 0 : 0.9;
      read.reasons.push(`known ${getRole(known).name}`);
    }
    reads.set(s.id, read);
  }
  const bump = (id: string, by: number, reason: string) => {
    const read = reads.get(id);
    if (!read || seats.get(id)?.knownRole) return;
    read.suspicion = clamp(read.suspicion + by);
    read.reasons.push(reason);
  };

  for (const inv of view.investigations) {
    const read = reads.get(inv.targetId);
    if (!read) continue;
    read.suspicion = inv.result === 'mafia' ? 1 : godfatherInPlay ? 0.1 : 0;
    read.reasons.push(`my investigation: ${inv.result}`);
  }

  const detectiveClaims = [...record.claims].filter(([, role]) => role === 'detective').map(([id]) => id);
  for (const claimer of detectiveClaims) {
    if (me.role === 'detective' && claimer !== me.id) {
      bump(claimer, 0.6, 'claims my role, Detective');
      continue;
    }
    if (claimer === me.id) continue;
    const contested = detectiveClaims.length > 1;
    if (contested) bump(claimer, 0.15, 'Detective claim is contested');
    const weight = contested ? 0.2 : 0.45;
    for (const [target, result] of record.claimedResults.get(claimer) ?? []) {
      if (target === me.id) {
        // A "Mafia" result on me proves the claimer lies (I know I am not Mafia).
        if (result === 'mafia' && !isMafia(me.role)) bump(claimer, 0.7, 'called me Mafia, a lie');
        continue;
      }
      bump(target, result === 'mafia' ? weight : -weight / 2, `${names.get(claimer)} says ${result}`);
    }
  }

  for (const round of record.votes) {
    if (!round.lynchedId) continue;
    const lynched = seats.get(round.lynchedId);
    if (!lynched?.knownRole) continue;
    const wasMafia = isMafia(lynched.knownRole);
    for (const [voter, target] of round.ballots) {
      if (target === round.lynchedId) bump(voter, wasMafia ? -0.1 : 0.12, wasMafia ? 'helped lynch Mafia' : 'helped lynch town');
      else if (wasMafia) bump(voter, 0.08, 'voted away from a Mafia lynch');
    }
  }

  // The Mafia kill the players who hunt them: whoever a victim accused gains a little suspicion.
  for (const victim of record.nightKills) {
    for (const accused of record.accusations.get(victim) ?? []) bump(accused, 0.06, `accused by ${names.get(victim)} before they died`);
  }

  const beliefs: Beliefs = {};
  for (const [id, read] of reads) {
    const seat = seats.get(id);
    const noise = seat?.alive && !seat.knownRole ? (rng.int(0, 100) - 50) / 1000 : 0;
    beliefs[id] = {
      suspicion: round2(clamp(read.suspicion + noise)),
      trust: round2(clamp(read.trust - read.suspicion / 2 + 0.25)),
      reason: (read.reasons.slice(-3).join('; ') || NO_INFORMATION).slice(0, 200),
    };
  }
  return beliefs;
}
