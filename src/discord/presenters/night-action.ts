import { ActionRowBuilder, EmbedBuilder, StringSelectMenuBuilder, type BaseMessageOptions } from 'discord.js';
import { findPlayer, getRole, hasNightAction, legalNightTargets, type GameState } from '../../game/index.ts';
import { COLOURS, NO_MENTIONS, relativeTime } from './format.ts';

export const NIGHT_SELECT = 'night';
export const SKIP_VALUE = '__skip__';

/** The game a night menu names (its custom id is `night:<game>:<day>`), or null for any other component. */
export function nightMenuGame(customId: string): string | null {
  const [prefix, gameId] = customId.split(':');
  return prefix === NIGHT_SELECT && gameId ? gameId : null;
}

const VERB = { kill: 'kill', investigate: 'investigate', protect: 'protect', shoot: 'shoot' } as const;

/** The DM a player with a night action gets: a menu of exactly the legal targets, plus skipping. */
export function nightActionMessage(state: GameState, playerId: string): BaseMessageOptions | null {
  const player = findPlayer(state, playerId);
  if (!player?.role || !hasNightAction(state, player)) return null;
  const action = getRole(player.role).nightAction;
  if (action === null) return null;
  const targets = legalNightTargets(state, playerId);
  const round = action === 'kill' && state.night.mafiaRound === 2 ? ' (second round: the first did not agree)' : '';
  const embed = new EmbedBuilder()
    .setColor(COLOURS.night)
    .setTitle(`Night ${state.day}: whom do you ${VERB[action]}?${round}`)
    .setDescription(`Choose before ${state.deadline ? relativeTime(state.deadline) : 'dawn'}. You can change your mind until then.`);
  const menu = new StringSelectMenuBuilder()
    .setCustomId(`${NIGHT_SELECT}:${state.id}:${String(state.day)}`)
    .setPlaceholder(`Choose whom to ${VERB[action]}`)
    .addOptions(...targets.slice(0, 24).map((t) => ({ label: t.name.slice(0, 100), value: t.id })), {
      label: action === 'shoot' ? 'Hold my fire' : 'Nobody tonight',
      value: SKIP_VALUE,
    });
  return {
    embeds: [embed],
    components: [new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(menu)],
    allowedMentions: NO_MENTIONS,
  };
}
