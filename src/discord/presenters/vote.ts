import { ActionRowBuilder, ButtonBuilder, ButtonStyle, EmbedBuilder, StringSelectMenuBuilder, type BaseMessageOptions } from 'discord.js';
import { countVotes, type GameState } from '../../game/index.ts';
import { COLOURS, NO_MENTIONS, nameOf, relativeTime } from './format.ts';

export const VOTE_SELECT = 'vote';
export const UNVOTE_BUTTON = 'unvote';
export const NO_LYNCH_VALUE = '__no_lynch__';

/** The live vote: tally, deadline, and the menu to vote with (everyone sees the same message). */
export function voteMessage(state: GameState): BaseMessageOptions {
  const { tally } = countVotes(state);
  const living = state.players.filter((p) => p.alive);
  const needed = state.settings.rules.voteMode === 'majority' ? Math.floor(living.length / 2) + 1 : null;
  const lines = tally.map(
    (t) => `**${t.targetId === 'no_lynch' ? 'No lynch' : nameOf(state, t.targetId)}** — ${t.voters.length}: ${t.voters.map((v) => nameOf(state, v)).join(', ')}`,
  );
  const waiting = living.filter((p) => !(p.id in state.votes)).map((p) => p.name);
  const embed = new EmbedBuilder()
    .setColor(COLOURS.day)
    .setTitle(`Day ${state.day}: the vote`)
    .setDescription(
      [
        lines.length > 0 ? lines.join('\n') : 'No votes yet.',
        '',
        needed ? `A lynch needs ${needed} votes.` : 'Most votes lynches; a tie lynches nobody.',
        waiting.length > 0 ? `Still to vote: ${waiting.join(', ')}` : 'Everyone has voted.',
        state.deadline ? `Closes ${relativeTime(state.deadline)}.` : '',
      ].join('\n').trim(),
    );
  const menu = new StringSelectMenuBuilder()
    .setCustomId(`${VOTE_SELECT}:${state.id}`)
    .setPlaceholder('Vote to lynch…')
    .addOptions(
      ...living.slice(0, 24).map((p) => ({ label: p.name.slice(0, 100), value: p.id })),
      ...(state.settings.rules.allowNoLynch ? [{ label: 'No lynch', value: NO_LYNCH_VALUE }] : []),
    );
  const unvote = new ButtonBuilder().setCustomId(`${UNVOTE_BUTTON}:${state.id}`).setLabel('Withdraw my vote').setStyle(ButtonStyle.Secondary);
  return {
    embeds: [embed],
    components: [new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(menu), new ActionRowBuilder<ButtonBuilder>().addComponents(unvote)],
    allowedMentions: NO_MENTIONS,
  };
}
