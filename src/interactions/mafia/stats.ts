import { ratingField, topRatedField } from '../../discord/presenters/ratings.ts';
import { statsMessage } from '../../discord/presenters/stats.ts';
import { mafiaCommand } from './context.ts';
import { guildOnly } from './preconditions.ts';

/** /mafia stats [user]: that person's record and rating in this server (yours by default) and the server's. */
export const stats = mafiaCommand.subcommand({
  name: 'stats',
  definition: (s) =>
    s
      .setDescription("A player's record in this server (yours by default) and the server's")
      .addUserOption((o) => o.setName('user').setDescription('Whose record')),
  preconditions: [guildOnly('Statistics are kept per server: use `/mafia stats` in a server channel, not in DMs.')],
  run: async (i, { deps, guildId, ack, reply }) => {
    const user = i.options.getUser('user') ?? i.user;
    const member = i.options.getMember('user') ?? (user.id === i.user.id ? i.member : null);
    const name = member && 'displayName' in member && typeof member.displayName === 'string' ? member.displayName : user.displayName;
    // Two queries over every finished game of the server may take longer than Discord's 3 seconds.
    await ack();
    const [mine, server, board, optedIn] = await Promise.all([
      deps.stats.userStats(guildId, user.id),
      deps.stats.serverStats(guildId),
      deps.ratings.board(guildId),
      deps.ratings.isOptedIn(guildId, user.id),
    ]);
    await reply.answer(
      statsMessage(
        { name, stats: mine, rating: ratingField(board, { userId: user.id, optedIn, you: user.id === i.user.id }) },
        { name: i.guild?.name ?? 'This server', stats: server, topRated: topRatedField(board) },
      ),
    );
  },
});
