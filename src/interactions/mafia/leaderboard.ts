import { leaderboardMessage } from '../../discord/presenters/ratings.ts';
import { mafiaCommand } from './context.ts';
import { guildOnly } from './preconditions.ts';

const OPTED_IN = 'You are now rated in this server: your finished games from now on count, and you show on this board.';
const OPTED_OUT = 'You are no longer rated in this server; your rating here is forgotten.';

/**
 * /mafia leaderboard [rate-me]: the server's ratings of AI personas, and of the people who chose to
 * be rated (`rate-me:true`; `false` takes them off and forgets their rating).
 */
export const leaderboard = mafiaCommand.subcommand({
  name: 'leaderboard',
  definition: (s) =>
    s
      .setDescription("This server's ratings of AI personas (and of people who opted in)")
      .addBooleanOption((o) =>
        o.setName('rate-me').setDescription('true: rate your games from now on and show you here; false: stop and forget your rating'),
      ),
  preconditions: [guildOnly('Ratings are kept per server: use `/mafia leaderboard` in a server channel, not in DMs.')],
  run: async (i, { deps, guildId, ack, reply }) => {
    await ack();
    const rateMe = i.options.getBoolean('rate-me');
    if (rateMe !== null) await deps.ratings.setOptIn(guildId, i.user.id, rateMe);
    const [board, optedIn] = await Promise.all([deps.ratings.board(guildId), deps.ratings.isOptedIn(guildId, i.user.id)]);
    const notice = rateMe === null ? undefined : rateMe ? OPTED_IN : OPTED_OUT;
    await reply.answer(
      leaderboardMessage(i.guild?.name ?? 'This server', board, { userId: i.user.id, optedIn, ...(notice && { notice }) }),
    );
  },
});
