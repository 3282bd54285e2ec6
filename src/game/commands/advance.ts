import type { Result } from '../../result.ts';
import { fail, type Change, type GameError } from '../errors.ts';
import { beginNight, resolveNight } from '../night.ts';
import { enterPhase } from '../phases.ts';
import type { GameState } from '../state.ts';
import { Transition } from '../transition.ts';
import { resolveVote } from '../vote.ts';
import { endTrialDiscussion, nextDefense } from '../trial-day.ts';

/**
 * Moves past a phase whose deadline has come. Whoever has not acted takes the
 * default (no night action, no vote), so a game never waits forever.
 */
export function advance(state: GameState, input: { at: number }): Result<Change, GameError> {
  if (state.phase === 'ended') return fail('game_over', 'This game is over.');
  if (state.phase === 'lobby' || state.deadline === null) return fail('wrong_phase', 'The game has not started.');
  if (input.at < state.deadline) {
    return fail('not_due', `The ${state.phase.replace('_', ' ')} runs for ${Math.ceil((state.deadline - input.at) / 1000)} more seconds.`);
  }
  const t = new Transition(state, input.at);
  switch (state.phase) {
    case 'night':
      resolveNight(t);
      break;
    case 'dawn':
      enterPhase(t, 'day', state.day);
      break;
    case 'day':
      if (state.settings.rules.dayStyle === 'trial') endTrialDiscussion(t);
      else enterPhase(t, 'vote', state.day);
      break;
    case 'defense':
      nextDefense(t);
      break;
    case 'vote':
      resolveVote(t);
      break;
    case 'last_words':
      beginNight(t);
      break;
  }
  return t.done();
}
