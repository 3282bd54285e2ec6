import { NO_MENTIONS, nameOf } from '../../discord/presenters/format.ts';
import { NO_LYNCH_VALUE, UNVOTE_BUTTON, VOTE_SELECT } from '../../discord/presenters/vote.ts';
import * as engine from '../../game/index.ts';
import { mafiaCommand, refuse } from './context.ts';
import { gameNamed, stillOpen } from './preconditions.ts';

const VOTE_CLOSED = 'This vote is closed: use the vote message of the current vote.';

// Votes come in bursts and each waits for its game's earlier commands to be stored: both controls
// acknowledge first (Discord's 3 s) and then fill the ephemeral answer, the vote or why nothing changed.

/** The vote message's menu: a player, or no lynch. */
export const voteSelect = mafiaCommand.select({
  id: VOTE_SELECT,
  deferFirst: true,
  preconditions: [gameNamed, stillOpen(VOTE_CLOSED)],
  run: async (i, { table }) => {
    const value = i.values[0] ?? '';
    const targetId = value === NO_LYNCH_VALUE ? 'no_lynch' : value;
    const cast = await table.submit((s, at) => engine.vote(s, { voterId: i.user.id, targetId, at }));
    if (!cast.ok) return refuse(i, cast.error.message);
    const content = targetId === 'no_lynch' ? 'Your vote: no lynch.' : `Your vote: ${nameOf(table.state, targetId)}.`;
    await i.editReply({ content, allowedMentions: NO_MENTIONS });
  },
});

/** The vote message's button: the vote is withdrawn. */
export const unvoteButton = mafiaCommand.button({
  id: UNVOTE_BUTTON,
  deferFirst: true,
  preconditions: [gameNamed, stillOpen(VOTE_CLOSED)],
  run: async (i, { table }) => {
    const withdrawn = await table.submit((s, at) => engine.unvote(s, { voterId: i.user.id, at }));
    if (!withdrawn.ok) return refuse(i, withdrawn.error.message);
    await i.editReply({ content: 'Your vote is withdrawn.', allowedMentions: NO_MENTIONS });
  },
});
