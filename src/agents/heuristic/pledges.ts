import type { PlayerView } from '../../game/index.ts';
import type { PublicRecord } from './reading.ts';

/** A vote this seat announced today ("Vote X", "my vote is heading to X"); the latest counts. */
export interface Pledge {
  readonly targetId: string;
  /** Its place in `record.speeches`: only what was said after it can change it. */
  readonly index: number;
}

/** Today's speeches are at the end of the record, so this reads back only as far as today. */
export function pledgeToday(view: PlayerView, record: PublicRecord): Pledge | null {
  const { speeches } = record;
  for (let i = speeches.length - 1; i >= 0; i--) {
    const s = speeches[i];
    if (s?.day !== view.day) break;
    if (s.speakerId === view.me.id && s.voteFor) return { targetId: s.voteFor, index: i };
  }
  return null;
}

/**
 * The Detective claim or claimed result said after the pledge that best explains leaving it for
 * `otherId` (the only talk the brain's reads react to): a result on `otherId` first, then a claim
 * by `otherId`, then a result on or claim by the pledged player. Returns the claimer's id.
 */
export function claimSince(view: PlayerView, record: PublicRecord, pledge: Pledge, otherId: string): string | null {
  const { speeches } = record;
  let found: string | null = null;
  let rank = 0;
  for (const s of speeches.slice(pledge.index + 1)) {
    if (rank === 4) break; // a result on otherId: nothing ranks higher
    if (s.speakerId === view.me.id || (s.roleClaim !== 'detective' && s.results.size === 0)) continue;
    const r = s.results.has(otherId)
      ? 4
      : s.speakerId === otherId
        ? 3
        : s.results.has(pledge.targetId)
          ? 2
          : s.speakerId === pledge.targetId
            ? 1
            : 0;
    if (r > rank) [found, rank] = [s.speakerId, r];
  }
  return found;
}
