import { MessageFlags, type ChatInputCommandInteraction } from 'discord.js';
import type { InteractionRouter } from '../../discord/router.ts';
import { NO_MENTIONS } from '../../discord/presenters/format.ts';
import { personaAutocomplete } from './choices.ts';
import { actorOf, findPersona, refuse, type PersonaDeps } from './context.ts';
import { PERSONA } from './definition.ts';
import { personaEmbed } from './persona-embed.ts';

async function show(i: ChatInputCommandInteraction, deps: PersonaDeps): Promise<void> {
  const store = deps.personas;
  const persona = await findPersona(store, actorOf(i), i.options.getString('persona', true));
  if (!persona.ok) return refuse(i, persona.error);
  await i.reply({ embeds: [personaEmbed(persona.value)], flags: MessageFlags.Ephemeral, allowedMentions: NO_MENTIONS });
}

export function registerShow(router: InteractionRouter, deps: PersonaDeps): void {
  router.onSlash(PERSONA, 'show', (i) => show(i, deps));
  router.onAutocomplete(PERSONA, 'show', personaAutocomplete(deps, 'visible'));
}
