import type { Message } from 'discord.js';
import type { LiveGames } from '../live-games.ts';

/**
 * messageCreate (MESSAGE_CREATE): a person who speaks in a server is still in it (the live games'
 * membership checks need not ask Discord), then the message goes to whoever listens (day chat, DMs).
 */
export function onMessageCreate(games: LiveGames, route: (message: Message) => void) {
  return (m: Message): void => {
    if (m.inGuild() && !m.author.bot) games.members.saw(m.guildId, m.author.id);
    route(m);
  };
}
