import type { Guild } from 'discord.js';
import type { LiveGames } from '../live-games.ts';

/** guildDelete (GUILD_DELETE): kicked from the server (or the server deleted), its games cannot go on anywhere. */
export function onGuildDelete(games: LiveGames) {
  return (guild: Guild): void => {
    for (const game of games.live) {
      if (game.guildId === guild.id) games.output.channelGone(game.channelId, { why: 'removed', server: guild.name });
    }
  };
}
