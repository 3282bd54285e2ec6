import { ActionRowBuilder, EmbedBuilder, StringSelectMenuBuilder, type BaseMessageOptions } from 'discord.js';
import { nominees, type GameState } from '../../game/index.ts';
import { COLOURS, NO_MENTIONS, nameOf, relativeTime } from './format.ts';

export const NOMINATE_SELECT = 'nominate';

/** Today's nominations, one line each: who nominated, who seconded, whether the nominee stands accused. */
function nominationLines(state: GameState): string[] {
  return state.trial.nominations.map((n) => {
    const by = `nominated by ${nameOf(state, n.nominatorId)}`;
    const seconded = n.seconderIds.length > 0 ? `, seconded by ${n.seconderIds.map((id) => nameOf(state, id)).join(', ')}` : '';
    return `⚖ **${nameOf(state, n.targetId)}**: ${by}${seconded}${n.standing ? ' (stands accused)' : ': needs a second'}`;
  });
}

function nominationEmbed(state: GameState, open: boolean): EmbedBuilder {
  const { maxNominees, nominationSeconds } = state.settings.rules;
  const lines = nominationLines(state);
  const standing = nominees(state).length;
  const how = nominationSeconds
    ? 'Pick a player to nominate them for trial, or to second a nomination someone else made; a nomination needs a second to stand.'
    : 'Pick a player to nominate them for trial.';
  return new EmbedBuilder()
    .setColor(COLOURS.day)
    .setTitle(`Day ${state.day}: nominations`)
    .setDescription(
      [
        lines.length > 0 ? lines.join('\n') : 'Nobody has been nominated yet.',
        '',
        `${standing} of at most ${maxNominees} stand accused. With nobody accused, the day ends with no lynch.`,
        open ? how : 'Nominations are closed.',
        open && state.deadline
          ? `Discussion ends ${relativeTime(state.deadline)}; then the accused defend themselves and the town votes among them.`
          : '',
      ]
        .join('\n')
        .trim(),
    );
}

/** The trial day's nominations message: the nominations so far and the menu to nominate or second with. */
export function nominationMessage(state: GameState): BaseMessageOptions {
  const living = state.players.filter((p) => p.alive);
  const menu = new StringSelectMenuBuilder()
    .setCustomId(`${NOMINATE_SELECT}:${state.id}:${String(state.day)}`)
    .setPlaceholder('Nominate or second…')
    .addOptions(living.slice(0, 25).map((p) => ({ label: p.name.slice(0, 100), value: p.id })));
  return {
    embeds: [nominationEmbed(state, true)],
    components: [new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(menu)],
    allowedMentions: NO_MENTIONS,
  };
}

/** The nominations message once the discussion is over: the final list, no menu. */
export function closedNominationMessage(state: GameState): BaseMessageOptions {
  return { embeds: [nominationEmbed(state, false)], components: [], allowedMentions: NO_MENTIONS };
}
