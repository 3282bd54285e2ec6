import { nameOf } from '../../discord/presenters/format.ts';
import { NO_LYNCH_VALUE, UNVOTE_BUTTON, VOTE_SELECT } from '../../discord/presenters/vote.ts';
import * as engine from '../../game/index.ts';
import { mafiaCommand } from './context.ts';
import { changeGameAnsweringOnceStored } from './game-change.ts';
import { gameNamed, stillOpen } from './preconditions.ts';

const VOTE_CLOSED = 'This vote is closed: use the vote message of the current vote.';

// Votes come in bursts: the engine decides each at once and the voter hears it at once; the tally follows the store.

/** The vote message's menu: a player, or no lynch. */
export const voteSelect = mafiaCommand.select({
  id: VOTE_SELECT,
  preconditions: [gameNamed, stillOpen(VOTE_CLOSED)],
  run: (i, found) => {
    const value = i.values[0] ?? '';
    const targetId = value === NO_LYNCH_VALUE ? 'no_lynch' : value;
    return changeGameAnsweringOnceStored(
      found,
      (s, at) => engine.vote(s, { voterId: i.user.id, targetId, at }),
      ({ state }) => (targetId === 'no_lynch' ? 'Your vote: no lynch.' : `Your vote: ${nameOf(state, targetId)}.`),
    );
  },
});

/** The vote message's button: the vote is withdrawn. */
export const unvoteButton = mafiaCommand.button({
  id: UNVOTE_BUTTON,
  preconditions: [gameNamed, stillOpen(VOTE_CLOSED)],
  run: (i, found) =>
    changeGameAnsweringOnceStored(
      found,
      (s, at) => engine.unvote(s, { voterId: i.user.id, at }),
      () => 'Your vote is withdrawn.',
    ),
});
