import { ActionRowBuilder, ButtonBuilder, ButtonStyle } from 'discord.js';
import type { LobbySeat } from '../../db/persona-seats.ts';
import { customIdArgs } from '../../discord/router.ts';
import { NO_MENTIONS, boldName } from '../../discord/presenters/format.ts';
import { mayEdit } from '../../persona/permissions.ts';
import { err } from '../../result.ts';
import { personaAutocomplete } from './choices.ts';
import { actorOf, personaCommand, type PersonaDeps } from './context.ts';
import { personaOption } from './options.ts';
import { editablePersona, namedPersona } from './preconditions.ts';

const DELETE_BUTTON = 'persona-delete';
const KEEP_A_COPY = 'This cannot be undone (export it first with `/persona export` to keep a copy).';

const channels = (seats: readonly LobbySeat[]) => [...new Set(seats.map((s) => `<#${s.channelId}>`))].join(', ');

/** The question: plain, or, for a persona seated in open lobbies, naming them and what deleting does there. */
function question(name: string, seats: readonly LobbySeat[]): { content: string; confirm: string } {
  if (seats.length === 0) return { content: `Delete ${boldName(name)} for good? ${KEEP_A_COPY}`, confirm: 'Delete' };
  const one = seats.length === 1;
  return {
    content:
      `${boldName(name)} is seated in ${one ? 'the lobby' : 'the lobbies'} in ${channels(seats)}. Delete it for good and free ` +
      `${one ? 'that seat' : 'those seats'} (the lobby is told), or keep it and have it removed from the lobby first ` +
      `(\`/mafia remove\`, by the host)? ${KEEP_A_COPY}`,
    confirm: one ? 'Delete and free the seat' : 'Delete and free the seats',
  };
}

/** /persona delete: asks first; the reply only the asker sees carries the Delete and Keep buttons. */
export const deletePersona = personaCommand.subcommand({
  name: 'delete',
  definition: (s) => s.setDescription('Delete a persona you may edit (asks first)').addStringOption(personaOption('Which persona')),
  // Reads the database, which may wait behind every game's writes: acknowledge first (Discord's 3 s).
  ackFirst: true,
  preconditions: [namedPersona, editablePersona],
  run: async (_i, { persona, deps, reply }) => {
    const asked = question(persona.profile.identity.name, await deps.personas.lobbySeatsOf(persona.id));
    const buttons = new ActionRowBuilder<ButtonBuilder>().addComponents(
      new ButtonBuilder().setCustomId(`${DELETE_BUTTON}:yes:${persona.id}`).setLabel(asked.confirm).setStyle(ButtonStyle.Danger),
      new ButtonBuilder().setCustomId(`${DELETE_BUTTON}:no:${persona.id}`).setLabel('Keep it').setStyle(ButtonStyle.Secondary),
    );
    await reply.answer({ content: asked.content, components: [buttons], allowedMentions: NO_MENTIONS });
  },
  autocomplete: personaAutocomplete('editable'),
});

/**
 * Deleting, once confirmed: the persona's lobby seats are freed first (each lobby told), wherever
 * it was seated since the question, since a seat must never play a persona that no longer exists.
 * A game that has started keeps its persona: nothing is deleted then.
 */
async function deleteConfirmed(deps: PersonaDeps, actor: ReturnType<typeof actorOf>, id: string): Promise<string> {
  const persona = await deps.personas.get(actor, id);
  if (!persona.ok) return 'Nothing was deleted: that persona no longer exists.';
  const allowed = mayEdit(actor, persona.value);
  if (!allowed.ok) return `Nothing was deleted: ${allowed.error.message}`;
  const name = persona.value.profile.identity.name;
  const freed: LobbySeat[] = [];
  for (const seat of await deps.personas.lobbySeatsOf(id)) {
    const result = deps.lobbies
      ? await deps.lobbies.freePersonaSeat(seat)
      : err(`its seat in <#${seat.channelId}> must be removed there first (\`/mafia remove\`).`);
    if (!result.ok) return `Nothing was deleted: ${result.error}${freed.length > 0 ? ` Its seat in ${channels(freed)} was freed.` : ''}`;
    freed.push(seat);
  }
  const removed = await deps.personas.remove(actor, id);
  if (!removed.ok)
    return `Nothing was deleted: ${removed.error.code === 'not_found' ? 'that persona no longer exists.' : removed.error.message}`;
  return `Deleted ${boldName(name)}.${freed.length > 0 ? ` Its seat in ${channels(freed)} is free, and the lobby was told.` : ''}`;
}

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
    const content = answer === 'yes' ? await deleteConfirmed(deps, actorOf(i), id) : 'Kept; nothing was deleted.';
    await reply.answer({ content, components: [], allowedMentions: NO_MENTIONS });
  },
});
