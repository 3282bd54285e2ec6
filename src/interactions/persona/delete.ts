import { ActionRowBuilder, ButtonBuilder, ButtonStyle } from 'discord.js';
import { customIdArgs } from '../../discord/router.ts';
import { NO_MENTIONS } from '../../discord/presenters/format.ts';
import { personaAutocomplete } from './choices.ts';
import { actorOf, personaCommand } from './context.ts';
import { personaOption } from './options.ts';
import { editablePersona, namedPersona } from './preconditions.ts';

const DELETE_BUTTON = 'persona-delete';

/** /persona delete: asks first; the reply only the asker sees carries the Delete and Keep buttons. */
export const deletePersona = personaCommand.subcommand({
  name: 'delete',
  definition: (s) => s.setDescription('Delete a persona you may edit (asks first)').addStringOption(personaOption('Which persona')),
  // Reads the database, which may wait behind every game's writes: acknowledge first (Discord's 3 s).
  ackFirst: true,
  preconditions: [namedPersona, editablePersona],
  run: async (_i, { persona, reply }) => {
    const buttons = new ActionRowBuilder<ButtonBuilder>().addComponents(
      new ButtonBuilder().setCustomId(`${DELETE_BUTTON}:yes:${persona.id}`).setLabel('Delete').setStyle(ButtonStyle.Danger),
      new ButtonBuilder().setCustomId(`${DELETE_BUTTON}:no:${persona.id}`).setLabel('Keep it').setStyle(ButtonStyle.Secondary),
    );
    await reply.answer({
      content: `Delete **${persona.profile.identity.name}** for good? This cannot be undone (export it first with \`/persona export\` to keep a copy).`,
      components: [buttons],
      allowedMentions: NO_MENTIONS,
    });
  },
  autocomplete: personaAutocomplete('editable'),
});

/** The answer to the question: Delete or Keep it. */
export const deleteButton = personaCommand.button({
  id: DELETE_BUTTON,
  // The question becomes the answer; deleting waits on the database, so the click is acknowledged first.
  ack: 'update',
  ackFirst: true,
  preconditions: [],
  run: async (i, { deps, reply }) => {
    const [answer, id] = customIdArgs(i.customId);
    if (id === undefined) return reply.privately('This button is no longer in use.');
    if (answer !== 'yes') {
      await reply.answer({ content: 'Kept; nothing was deleted.', components: [], allowedMentions: NO_MENTIONS });
      return;
    }
    const actor = actorOf(i);
    const persona = await deps.personas.get(actor, id);
    const name = persona.ok ? persona.value.profile.identity.name : 'The persona';
    const removed = await deps.personas.remove(actor, id);
    const content = removed.ok
      ? `Deleted **${name}**.`
      : `Nothing was deleted: ${removed.error.code === 'not_found' ? 'that persona no longer exists.' : removed.error.message}`;
    await reply.answer({ content, components: [], allowedMentions: NO_MENTIONS });
  },
});
