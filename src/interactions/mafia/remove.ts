import * as engine from '../../game/index.ts';
import { NO_MENTIONS, plainName } from '../../discord/presenters/format.ts';
import { mafiaCommand } from './context.ts';
import { changeGame } from './game-change.ts';
import { gameHere, hostOnly, lobbyOpen } from './preconditions.ts';

/** /mafia remove player: the host frees a lobby seat (a person or an AI); the option is a player id or a seated name. */
export const remove = mafiaCommand.subcommand({
  name: 'remove',
  definition: (s) =>
    s
      .setDescription('Remove a player from the lobby (host)')
      .addStringOption((o) => o.setName('player').setDescription('Who leaves').setRequired(true).setAutocomplete(true).setMaxLength(100)),
  preconditions: [gameHere, hostOnly, lobbyOpen('The game has started; players can only be removed in the lobby.')],
  run: async (i, found) => {
    const wanted = i.options.getString('player', true).trim();
    const player = found.game.state.players.find((p) => p.id === wanted || p.name.toLowerCase() === wanted.toLowerCase());
    if (!player) return found.reply.privately(`Nobody called "${wanted}" is seated in this game.`);
    await changeGame(
      found,
      (s, at) => engine.leave(s, { playerId: player.id, at }),
      () => found.reply.answer({ content: `${plainName(player.name)} was removed from the lobby.`, allowedMentions: NO_MENTIONS }),
    );
  },
  // The seated players, people and AI.
  autocomplete: async (i, deps) => {
    const game = i.inGuild() ? await deps.liveGames.inChannel(i.channelId) : null;
    const q = i.options.getFocused().toLowerCase();
    const players = game?.state.players.filter((p) => p.name.toLowerCase().includes(q)) ?? [];
    await i.respond(players.slice(0, 25).map((p) => ({ name: `${p.name}${p.kind === 'ai' ? ' (AI)' : ''}`, value: p.id })));
  },
});
