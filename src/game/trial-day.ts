import { enterPhase } from './phases.ts';
import { beginNight } from './night.ts';
import { nominees } from './state.ts';
import type { Transition } from './transition.ts';

/**
 * The end of a trial day's discussion: the first nominee defends, or, with nobody standing
 * accused, the day ends with no lynch.
 */
export function endTrialDiscussion(t: Transition): void {
  const [first] = nominees(t.state);
  if (first !== undefined) {
    enterPhase(t, 'defense', t.state.day, first);
    return;
  }
  noTrial(t);
}

/** Nobody stands accused: the day ends with no lynch, recorded as a vote that never was, and night falls. */
function noTrial(t: Transition): void {
  t.emit({ type: 'vote_resolved', payload: { day: t.state.day, tally: [], lynchedId: null, reason: 'no_nominees' } });
  beginNight(t);
}

/** After a defense (time up, rested, or the defendant gone): the next living nominee's turn, or the vote. */
export function nextDefense(t: Transition): void {
  const standing = nominees(t.state);
  const at = t.state.trial.defendant === null ? -1 : standing.indexOf(t.state.trial.defendant);
  // The defendant may have just died (and left the list): the next one is then at the same place.
  const next = at >= 0 ? standing[at + 1] : nextAfterGone(t);
  if (next !== undefined) enterPhase(t, 'defense', t.state.day, next);
  else if (standing.length === 0) noTrial(t);
  else enterPhase(t, 'vote', t.state.day);
}

/** The nominee after a defendant who is no longer on the list: the first who has not yet had their turn. */
function nextAfterGone(t: Transition): string | undefined {
  const defended = new Set<string>();
  for (const e of t.state.log)
    if (e.type === 'phase_started' && e.payload.day === t.state.day && e.payload.defendantId) defended.add(e.payload.defendantId);
  return nominees(t.state).find((id) => !defended.has(id));
}
