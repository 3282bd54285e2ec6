import type { Result } from '../../result.ts';
import { fail, type Change, type GameError } from '../errors.ts';
import { notOver } from './play.ts';
import { findPlayer, nominees, type GameState, type PlayerId, type PlayerState } from '../state.ts';
import { Transition } from '../transition.ts';
import { nextDefense } from '../trial-day.ts';

/** Why `playerId` may not put `targetId` up for trial (or second it) now; null when they may. */
function trialMoveError(state: GameState, playerId: PlayerId, targetId: PlayerId): GameError | null {
  if (state.settings.rules.dayStyle !== 'trial')
    return { code: 'rule_disabled', message: 'This game has an open day: there are no nominations; vote in the vote.' };
  if (state.phase !== 'day') return { code: 'wrong_phase', message: 'Nominations are made during the day’s discussion.' };
  const player = findPlayer(state, playerId);
  if (!player) return { code: 'not_in_game', message: 'You are not playing in this game.' };
  if (!player.alive) return { code: 'dead', message: 'You are dead; the dead do not nominate.' };
  const target = findPlayer(state, targetId);
  if (!target) return { code: 'unknown_target', message: 'That player is not in this game.' };
  if (!target.alive) return { code: 'dead_target', message: `${target.name} is already dead.` };
  if (target.id === player.id) return { code: 'self_target', message: 'You cannot put yourself on trial.' };
  const standing = state.trial.nominations.find((n) => n.targetId === targetId);
  if (standing?.standing) return { code: 'invalid_target', message: `${target.name} already stands accused today.` };
  const max = state.settings.rules.maxNominees;
  if (nominees(state).length >= max)
    return { code: 'invalid_target', message: `Today already has ${max} nominee${max === 1 ? '' : 's'}, the most a day allows.` };
  return null;
}

/**
 * Whom `playerId` may nominate (or second) now: every living other player who does not yet stand
 * accused, while the day has room for another nominee; once they have made their own nomination,
 * only the nominations others made, which they may second. Empty outside a trial day's discussion.
 */
export function legalNominees(state: GameState, playerId: PlayerId): PlayerState[] {
  if (state.settings.rules.dayStyle !== 'trial' || state.phase !== 'day') return [];
  const own = state.trial.nominations.some((n) => n.nominatorId === playerId);
  return state.players.filter((p) => {
    if (trialMoveError(state, playerId, p.id) !== null) return false;
    const nomination = state.trial.nominations.find((n) => n.targetId === p.id);
    return nomination ? nomination.nominatorId !== playerId : !own;
  });
}

/**
 * Puts a player up for trial in a trial day. Naming someone another player has already nominated
 * seconds that nomination instead; a player makes one nomination of their own a day.
 */
export function nominate(state: GameState, input: { playerId: PlayerId; targetId: PlayerId; at: number }): Result<Change, GameError> {
  const over = notOver(state);
  if (over) return over;
  const error = trialMoveError(state, input.playerId, input.targetId);
  if (error) return fail(error.code, error.message);
  if (state.trial.nominations.some((n) => n.targetId === input.targetId)) return second(state, input);
  if (state.trial.nominations.some((n) => n.nominatorId === input.playerId)) {
    return fail('invalid_target', 'You have already nominated someone today; you may still second another nomination.');
  }
  const t = new Transition(state, input.at);
  t.emit({ type: 'nominated', payload: { day: state.day, nominatorId: input.playerId, targetId: input.targetId } });
  return t.done();
}

/** Seconds another player's nomination, which puts its nominee on trial. */
export function second(state: GameState, input: { playerId: PlayerId; targetId: PlayerId; at: number }): Result<Change, GameError> {
  const over = notOver(state);
  if (over) return over;
  const error = trialMoveError(state, input.playerId, input.targetId);
  if (error) return fail(error.code, error.message);
  const nomination = state.trial.nominations.find((n) => n.targetId === input.targetId);
  const name = findPlayer(state, input.targetId)?.name ?? input.targetId;
  if (!nomination) return fail('invalid_target', `Nobody has nominated ${name} today; nominate them yourself.`);
  if (nomination.nominatorId === input.playerId) {
    return fail('invalid_target', `You nominated ${name}; another player must second it.`);
  }
  const t = new Transition(state, input.at);
  t.emit({ type: 'nomination_seconded', payload: { day: state.day, seconderId: input.playerId, targetId: input.targetId } });
  return t.done();
}

/** The defendant ends their defense before their time is up: the next nominee speaks, or the vote begins. */
export function restDefense(state: GameState, input: { playerId: PlayerId; at: number }): Result<Change, GameError> {
  const over = notOver(state);
  if (over) return over;
  if (state.phase !== 'defense' || state.trial.defendant !== input.playerId) {
    return fail('wrong_phase', 'Only the defendant can rest their case, during their defense.');
  }
  const t = new Transition(state, input.at);
  t.emit({ type: 'defense_rested', payload: { playerId: input.playerId } });
  nextDefense(t);
  return t.done();
}
