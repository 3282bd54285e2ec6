import { AttachmentBuilder } from 'discord.js';
import { NO_MENTIONS } from '../../discord/presenters/format.ts';
import { exportCardV2Json, exportCardV2Png } from '../../persona/card-export.ts';
import type { Persona, PersonaContent } from '../../persona/persona.ts';
import { exportPersonaJson } from '../../persona/persona-json.ts';
import { personaAutocomplete } from './choices.ts';
import { personaCommand } from './context.ts';
import { personaOption } from './options.ts';
import { namedPersona } from './preconditions.ts';

/** A file name people recognise: the persona's name, in letters, digits and dashes. */
function fileStem(name: string): string {
  return (
    name
      .normalize('NFKD')
      .replace(/[^\w-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .toLowerCase() || 'persona'
  );
}

/** Only what a persona is: ids, owner and dates stay behind (the card carries the rest whole). */
function contentOf(persona: Persona): PersonaContent {
  const { profile, avatarUrl, tags, notes, parts, traits, arc, card } = persona;
  return { profile, avatarUrl, tags, notes, parts, traits, arc, card };
}

function files(stored: Persona, format: string): AttachmentBuilder[] {
  const persona = contentOf(stored);
  const stem = fileStem(persona.profile.identity.name);
  const json = new AttachmentBuilder(Buffer.from(exportPersonaJson(persona), 'utf8'), { name: `${stem}.persona.json` });
  const png = new AttachmentBuilder(Buffer.from(exportCardV2Png(persona)), { name: `${stem}.card.png` });
  const cardJson = new AttachmentBuilder(Buffer.from(exportCardV2Json(persona), 'utf8'), { name: `${stem}.card.json` });
  if (format === 'json') return [json];
  if (format === 'card-png') return [png];
  if (format === 'card-json') return [cardJson];
  return [json, png];
}

/** /persona export [format]: the persona as files that import back, into Dramatis or a card editor. */
export const exportPersona = personaCommand.subcommand({
  name: 'export',
  definition: (s) =>
    s
      .setDescription('A persona as files: Dramatis JSON and a Character Card')
      .addStringOption(personaOption('Which persona'))
      .addStringOption((o) =>
        o
          .setName('format')
          .setDescription('Which files (default: Dramatis JSON and card PNG)')
          .addChoices(
            { name: 'Dramatis JSON and Character Card PNG', value: 'both' },
            { name: 'Dramatis JSON', value: 'json' },
            { name: 'Character Card V2 (PNG)', value: 'card-png' },
            { name: 'Character Card V2 (JSON)', value: 'card-json' },
          ),
      ),
  // Reads the database, which may wait behind every game's writes: acknowledge first (Discord's 3 s).
  ackFirst: true,
  preconditions: [namedPersona],
  run: async (i, { persona, reply }) => {
    await reply.answer({
      content: `**${persona.profile.identity.name}**: the .persona.json imports back into Dramatis exactly; the card opens in SillyTavern and other card editors (and imports back too).`,
      files: files(persona, i.options.getString('format') ?? 'both'),
      allowedMentions: NO_MENTIONS,
    });
  },
  autocomplete: personaAutocomplete('visible'),
});
