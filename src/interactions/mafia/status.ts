import { EmbedBuilder } from 'discord.js';
import { PHASE_TITLE, viewFor, type GameState } from '../../game/index.ts';
import { COLOURS, NO_MENTIONS, relativeTime } from '../../discord/presenters/format.ts';
import { roleCardMessage } from '../../discord/presenters/role-card.ts';
import { mafiaCommand } from './context.ts';
import { gameHere } from './preconditions.ts';

/** Public facts only; the person's own role card is added for them alone (the reply is ephemeral). */
function statusEmbed(state: GameState): EmbedBuilder {
  const phase = state.phase === 'lobby' || state.phase === 'ended' ? PHASE_TITLE[state.phase] : `${PHASE_TITLE[state.phase]} ${state.day}`;
  const until = state.deadline ? ` · ends ${relativeTime(state.deadline)}` : '';
  const alive = state.players.filter((p) => p.alive).map((p) => p.name);
  const dead = state.players.filter((p) => !p.alive).map((p) => p.name);
  const embed = new EmbedBuilder()
    .setTitle(`Mafia: ${phase}${until}`)
    .setColor(COLOURS.info)
    .addFields({ name: `Alive (${alive.length})`, value: alive.join(', ') || '—' });
  if (dead.length > 0) embed.addFields({ name: `Dead (${dead.length})`, value: dead.join(', ') });
  return embed;
}

/** /mafia status: the game's public facts, and the person's own role card. */
export const status = mafiaCommand.subcommand({
  name: 'status',
  definition: (s) => s.setDescription('The game in this channel: phase, deadline, who is alive'),
  preconditions: [gameHere],
  run: async (i, { game, reply }) => {
    const state = game.state;
    const me = state.players.find((p) => p.userId === i.user.id);
    const view = me && state.phase !== 'lobby' ? viewFor(state, me.id) : null;
    const card = view
      ? (roleCardMessage(view, i.channel && 'name' in i.channel && i.channel.name ? i.channel.name : 'this channel').embeds ?? [])
      : [];
    await reply.answer({ embeds: [statusEmbed(state), ...card], allowedMentions: NO_MENTIONS });
  },
});
