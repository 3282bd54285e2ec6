import { PROFILE_LIMITS } from '../../persona/profile.ts';
import { NO_MENTIONS, boldName, plainName } from '../../discord/presenters/format.ts';
import { personaAutocomplete } from './choices.ts';
import { actorOf, personaCommand } from './context.ts';
import { personaOption, scopeOf, scopeOption } from './options.ts';
import { namedPersona, scopeAllowedHere } from './preconditions.ts';

/** /persona duplicate: an editable copy, private or the server's; the way to change a built-in persona. */
export const duplicate = personaCommand.subcommand({
  name: 'duplicate',
  definition: (s) =>
    s
      .setDescription('An editable copy of a persona (the way to change a built-in one)')
      .addStringOption(personaOption('Which persona to copy'))
      .addStringOption((o) =>
        o.setName('name').setDescription('Name of the copy (default: "<name> (copy)")').setMaxLength(PROFILE_LIMITS.name.max),
      )
      .addStringOption(scopeOption),
  // Reads the database, which may wait behind every game's writes: acknowledge first (Discord's 3 s).
  ackFirst: true,
  preconditions: [scopeAllowedHere, namedPersona],
  run: async (i, { deps, persona: source, reply }) => {
    const name = i.options.getString('name')?.trim();
    // The store only ever creates: a name already taken is refused, never overwritten.
    const copy = await deps.personas.duplicate(actorOf(i), source.id, { scope: scopeOf(i), ...(name ? { name } : {}) });
    if (!copy.ok) return reply.privately(`Nothing was copied: ${copy.error.message}`);
    const where = copy.value.scope.kind === 'server' ? 'for this server' : 'as your private persona';
    await reply.answer({
      content: `Copied ${plainName(source.profile.identity.name)} to ${boldName(copy.value.profile.identity.name)} ${where}. It is yours to change.`,
      allowedMentions: NO_MENTIONS,
    });
  },
  autocomplete: personaAutocomplete('visible'),
});
