import { AttachmentBuilder, MessageFlags, type ChatInputCommandInteraction } from 'discord.js';
import type { InteractionRouter } from '../../discord/router.ts';
import { NO_MENTIONS } from '../../discord/presenters/format.ts';
import { exportCardV2Json, exportCardV2Png } from '../../persona/card-export.ts';
import type { Persona, PersonaContent } from '../../persona/persona.ts';
import { exportPersonaJson } from '../../persona/persona-json.ts';
import { personaAutocomplete } from './choices.ts';
import { actorOf, findPersona, refuse, type PersonaDeps } from './context.ts';
import { PERSONA } from './definition.ts';

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

async function exportSlash(i: ChatInputCommandInteraction, deps: PersonaDeps): Promise<void> {
  const store = deps.personas;
  const persona = await findPersona(store, actorOf(i), i.options.getString('persona', true));
  if (!persona.ok) return refuse(i, persona.error);
  await i.reply({
    content: `**${persona.value.profile.identity.name}**: the .persona.json imports back into Dramatis exactly; the card opens in SillyTavern and other card editors (and imports back too).`,
    files: files(persona.value, i.options.getString('format') ?? 'both'),
    flags: MessageFlags.Ephemeral,
    allowedMentions: NO_MENTIONS,
  });
}

export function registerExport(router: InteractionRouter, deps: PersonaDeps): void {
  router.onSlash(PERSONA, 'export', (i) => exportSlash(i, deps));
  router.onAutocomplete(PERSONA, 'export', personaAutocomplete(deps, 'visible'));
}
