import { NO_MENTIONS } from '../../discord/presenters/format.ts';
import { personaAutocomplete } from './choices.ts';
import { personaCommand } from './context.ts';
import { personaOption } from './options.ts';
import { namedPersona } from './preconditions.ts';
import { personaEmbed } from './persona-embed.ts';

/** /persona show: a persona in full. */
export const show = personaCommand.subcommand({
  name: 'show',
  definition: (s) => s.setDescription('A persona in full').addStringOption(personaOption('Which persona')),
  // Reads the database, which may wait behind every game's writes: acknowledge first (Discord's 3 s).
  ackFirst: true,
  preconditions: [namedPersona],
  run: async (_i, { persona, reply }) => {
    await reply.answer({ embeds: [personaEmbed(persona)], allowedMentions: NO_MENTIONS });
  },
  autocomplete: personaAutocomplete('visible'),
});
