import { EmbedBuilder, type BaseMessageOptions } from 'discord.js';
import { getRole, type PlayerView } from '../../game/index.ts';
import { COLOURS, NO_MENTIONS } from './format.ts';
import { investigationsField } from './investigation.ts';

const ACTION_HINT = {
  kill: 'Each night you will get a menu here to propose the kill; talk it over in the Mafia thread.',
  investigate:
    'Each night you will get a menu here to choose whom to investigate; the result comes here at dawn, and `/mafia status` lists them all.',
  protect: 'Each night you will get a menu here to choose whom to protect.',
  shoot: 'Each night you will get a menu here to shoot someone or hold your fire.',
} as const;

/** The private role card a player gets by DM when the game starts, and in `/mafia status` with their results so far. */
export function roleCardMessage(view: PlayerView, channelName: string): BaseMessageOptions {
  const role = view.me.role ? getRole(view.me.role) : null;
  const embed = new EmbedBuilder()
    .setTitle(role ? `You are the ${role.name}` : 'You have no role')
    .setColor(role ? COLOURS[role.faction] : COLOURS.info)
    .setDescription(role?.card ?? 'Wait for the game to start.')
    .setFooter({ text: `Mafia in #${channelName} · keep this to yourself` });
  if (role?.nightAction) embed.addFields({ name: 'At night', value: ACTION_HINT[role.nightAction] });
  if (view.teammates.length > 0) {
    embed.addFields({ name: 'Your team', value: view.teammates.map((t) => `${t.name} (${getRole(t.role).name})`).join('\n') });
  }
  const results = investigationsField(view);
  if (results) embed.addFields(results);
  embed.addFields({ name: 'Roles in this game', value: view.rolesInPlay.map((r) => getRole(r).name).join(', ') || '—' });
  return { embeds: [embed], allowedMentions: NO_MENTIONS };
}
