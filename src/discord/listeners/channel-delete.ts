import type { DMChannel, GuildChannel } from 'discord.js';
import type { LiveGames } from '../live-games.ts';

/** channelDelete (CHANNEL_DELETE): a game's channel deleted cancels its game (the output stops posting there, the players are told by DM). */
export function onChannelDelete(games: LiveGames) {
  return (channel: DMChannel | GuildChannel): void => {
    if (games.liveInChannel(channel.id)) games.output.channelGone(channel.id);
  };
}
