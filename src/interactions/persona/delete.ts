import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  MessageFlags,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
} from 'discord.js';
import { customIdArgs, type InteractionRouter } from '../../discord/router.ts';
import { NO_MENTIONS } from '../../discord/presenters/format.ts';
import { mayEdit } from '../../persona/permissions.ts';
import { personaAutocomplete } from './choices.ts';
import { actorOf, findPersona, refuse, type PersonaDeps } from './context.ts';
import { PERSONA } from './definition.ts';

const DELETE_BUTTON = 'persona-delete';

/** Asks first: the reply only the asker sees carries the Delete and Keep buttons. */
async function deleteSlash(i: ChatInputCommandInteraction, deps: PersonaDeps): Promise<void> {
  const store = deps.personas;
  const actor = actorOf(i);
  const persona = await findPersona(store, actor, i.options.getString('persona', true));
  if (!persona.ok) return refuse(i, persona.error);
  const allowed = mayEdit(actor, persona.value);
  if (!allowed.ok) return refuse(i, allowed.error.message);
  const buttons = new ActionRowBuilder<ButtonBuilder>().addComponents(
    new ButtonBuilder().setCustomId(`${DELETE_BUTTON}:yes:${persona.value.id}`).setLabel('Delete').setStyle(ButtonStyle.Danger),
    new ButtonBuilder().setCustomId(`${DELETE_BUTTON}:no:${persona.value.id}`).setLabel('Keep it').setStyle(ButtonStyle.Secondary),
  );
  await i.reply({
    content: `Delete **${persona.value.profile.identity.name}** for good? This cannot be undone (export it first with \`/persona export\` to keep a copy).`,
    components: [buttons],
    flags: MessageFlags.Ephemeral,
    allowedMentions: NO_MENTIONS,
  });
}

async function deleteButton(i: ButtonInteraction, deps: PersonaDeps): Promise<void> {
  const [answer, id] = customIdArgs(i.customId);
  if (id === undefined) return refuse(i, 'This button is no longer in use.');
  if (answer !== 'yes') {
    await i.update({ content: 'Kept; nothing was deleted.', components: [], allowedMentions: NO_MENTIONS });
    return;
  }
  const actor = actorOf(i);
  const persona = await deps.personas.get(actor, id);
  const name = persona.ok ? persona.value.profile.identity.name : 'The persona';
  const removed = await deps.personas.remove(actor, id);
  const content = removed.ok
    ? `Deleted **${name}**.`
    : `Nothing was deleted: ${removed.error.code === 'not_found' ? 'that persona no longer exists.' : removed.error.message}`;
  await i.update({ content, components: [], allowedMentions: NO_MENTIONS });
}

export function registerDelete(router: InteractionRouter, deps: PersonaDeps): void {
  router.onSlash(PERSONA, 'delete', (i) => deleteSlash(i, deps));
  router.onAutocomplete(PERSONA, 'delete', personaAutocomplete(deps, 'editable'));
  router.onButton(DELETE_BUTTON, (i) => deleteButton(i, deps));
}
