import { MessageFlags, type ChatInputCommandInteraction } from 'discord.js';
import type { InteractionRouter } from '../../discord/router.ts';
import { NO_MENTIONS } from '../../discord/presenters/format.ts';
import { personaAutocomplete } from './choices.ts';
import { actorOf, findPersona, refuse, scopeOption, scopeRefusal, type PersonaDeps } from './context.ts';
import { PERSONA } from './definition.ts';

async function duplicate(i: ChatInputCommandInteraction, deps: PersonaDeps): Promise<void> {
  const store = deps.personas;
  const wrongScope = scopeRefusal(i);
  if (wrongScope) return refuse(i, wrongScope);
  const actor = actorOf(i);
  const source = await findPersona(store, actor, i.options.getString('persona', true));
  if (!source.ok) return refuse(i, source.error);
  const name = i.options.getString('name')?.trim();
  // The store only ever creates: a name already taken is refused, never overwritten.
  const copy = await store.duplicate(actor, source.value.id, { scope: scopeOption(i), ...(name ? { name } : {}) });
  if (!copy.ok) return refuse(i, `Nothing was copied: ${copy.error.message}`);
  const where = copy.value.scope.kind === 'server' ? 'for this server' : 'as your private persona';
  await i.reply({
    content: `Copied ${source.value.profile.identity.name} to **${copy.value.profile.identity.name}** ${where}. It is yours to change.`,
    flags: MessageFlags.Ephemeral,
    allowedMentions: NO_MENTIONS,
  });
}

export function registerDuplicate(router: InteractionRouter, deps: PersonaDeps): void {
  router.onSlash(PERSONA, 'duplicate', (i) => duplicate(i, deps));
  router.onAutocomplete(PERSONA, 'duplicate', personaAutocomplete(deps, 'visible'));
}
