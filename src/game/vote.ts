import type { GameError } from './errors.ts';
import { emitDeath, beginNight } from './night.ts';
import { endIfWon, enterPhase } from './phases.ts';
import { findPlayer, nominees, type GameState, type PlayerId, type PlayerState, type VoteTarget } from './state.ts';
import type { Transition } from './transition.ts';

export function voteError(state: GameState, voterId: PlayerId, targetId: VoteTarget): GameError | null {
  if (state.phase !== 'vote') return { code: 'wrong_phase', message: 'Votes are only taken during the vote.' };
  const voter = findPlayer(state, voterId);
  if (!voter) return { code: 'not_in_game', message: 'You are not playing in this game.' };
  if (!voter.alive) return { code: 'dead', message: 'You are dead; the dead do not vote.' };
  if (targetId === 'no_lynch') {
    return state.settings.rules.allowNoLynch ? null : { code: 'rule_disabled', message: 'In this game you cannot vote for no lynch.' };
  }
  const target = findPlayer(state, targetId);
  if (!target) return { code: 'unknown_target', message: 'That player is not in this game.' };
  if (!target.alive) return { code: 'dead_target', message: `${target.name} is already dead.` };
  if (target.id === voter.id) return { code: 'self_target', message: 'You cannot vote for yourself.' };
  if (state.settings.rules.dayStyle === 'trial' && !nominees(state).includes(target.id)) {
    const names = nominees(state).map((id) => findPlayer(state, id)?.name ?? id);
    const noLynch = state.settings.rules.allowNoLynch ? ' or no lynch' : '';
    return { code: 'invalid_target', message: `${target.name} is not on trial today; vote for ${names.join(', ')}${noLynch}.` };
  }
  return null;
}

export function legalVoteTargets(state: GameState, voterId: PlayerId): PlayerState[] {
  // What voteError allows, worked out once rather than per seat: in the vote, a living voter may vote any other living player.
  if (state.phase !== 'vote' || !findPlayer(state, voterId)?.alive) return [];
  const targets: PlayerState[] = [];
  const onTrial = state.settings.rules.dayStyle === 'trial' ? nominees(state) : null;
  for (const p of state.players) if (p.alive && p.id !== voterId && (onTrial === null || onTrial.includes(p.id))) targets.push(p);
  return targets;
}

export interface Tally {
  readonly tally: { targetId: VoteTarget; voters: PlayerId[] }[];
  readonly lynchedId: PlayerId | null;
  readonly reason: 'plurality' | 'majority' | 'tie' | 'no_majority' | 'no_lynch' | 'no_votes' | 'no_nominees';
}

function seatOf(state: GameState, target: VoteTarget): number {
  return target === 'no_lynch' ? Infinity : (findPlayer(state, target)?.seat ?? 0);
}

/** Counts the votes; ordered by votes, then seat, so the same votes always read the same. */
export function countVotes(state: GameState): Tally {
  const groups = new Map<VoteTarget, PlayerId[]>();
  for (const p of state.players) {
    const target = p.alive ? state.votes[p.id] : undefined;
    if (target === undefined) continue;
    const voters = groups.get(target);
    if (voters) voters.push(p.id);
    else groups.set(target, [p.id]);
  }
  const tally = [...groups]
    .map(([targetId, voters]) => ({ targetId, voters }))
    .sort((a, b) => b.voters.length - a.voters.length || seatOf(state, a.targetId) - seatOf(state, b.targetId));
  const [top, second] = tally;
  if (!top) return { tally, lynchedId: null, reason: 'no_votes' };
  if (state.settings.rules.voteMode === 'majority') {
    const needed = Math.floor(state.players.filter((p) => p.alive).length / 2) + 1;
    if (top.voters.length < needed) return { tally, lynchedId: null, reason: 'no_majority' };
  } else if (second && second.voters.length === top.voters.length) {
    return { tally, lynchedId: null, reason: 'tie' };
  }
  if (top.targetId === 'no_lynch') return { tally, lynchedId: null, reason: 'no_lynch' };
  return { tally, lynchedId: top.targetId, reason: state.settings.rules.voteMode };
}

export function resolveVote(t: Transition): void {
  const { tally, lynchedId, reason } = countVotes(t.state);
  t.emit({ type: 'vote_resolved', payload: { day: t.state.day, tally, lynchedId, reason } });
  const lynched = lynchedId ? findPlayer(t.state, lynchedId) : undefined;
  if (lynched) {
    emitDeath(t, lynched, 'lynch');
    if (lynched.role === 'jester') t.emit({ type: 'jester_won', payload: { playerId: lynched.id } });
  }
  if (endIfWon(t)) return;
  if (lynched && t.state.settings.rules.lastWordsSeconds > 0) enterPhase(t, 'last_words', t.state.day);
  else beginNight(t);
}

/** Everyone alive who has a vote to cast has voted: no reason to wait for the deadline. */
export function allVoted(state: GameState): boolean {
  const trial = state.settings.rules.dayStyle === 'trial';
  for (const p of state.players) {
    if (!p.alive || p.id in state.votes) continue;
    // In a trial with no "no lynch", the only nominee has nobody to vote for.
    if (trial && !state.settings.rules.allowNoLynch && legalVoteTargets(state, p.id).length === 0) continue;
    return false;
  }
  return true;
}
