import type { Interaction } from 'discord.js';
import type { LiveGames } from '../live-games.ts';
import { nightMenuGame } from '../presenters/night-action.ts';

/**
 * interactionCreate (INTERACTION_CREATE): whoever acts in a server is still in it (the live games'
 * membership checks need not ask Discord), then the interaction is routed.
 */
export function onInteractionCreate(games: LiveGames, route: (interaction: Interaction) => void) {
  return (i: Interaction): void => {
    if (i.inGuild()) games.members.saw(i.guildId, i.user.id);
    // A night pick by DM is playing in its game: as good a sign of being there as a word in its channel.
    else if (i.isMessageComponent()) {
      const gameId = nightMenuGame(i.customId);
      const game = gameId ? games.liveGame(gameId) : undefined;
      if (game) games.members.saw(game.guildId, i.user.id);
    }
    route(i);
  };
}
