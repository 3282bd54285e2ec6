import type { AutocompleteInteraction } from 'discord.js';
import type { PersonaStore, PersonaSummary } from '../../db/persona-store.ts';
import { mayEdit, type Actor } from '../../persona/permissions.ts';
import { actorOf, type PersonaDeps } from './context.ts';

const MAX_CHOICES = 25;

/** Which personas a subcommand offers: everything the person can see, or only what they may change. */
export type ChoiceFilter = 'visible' | 'editable';

const LABELS = { everyone: 'built-in', server: 'server', private: 'yours' } as const;

function label(s: PersonaSummary): string {
  return `${s.name.slice(0, 80)} · ${s.builtIn ? 'built-in' : LABELS[s.scope.kind]}`;
}

/**
 * The personas a person may pick, for autocomplete and menus (/persona and /mafia add-ai): what
 * the store lets them see, narrowed by the filter and `exclude`, at most 25.
 */
export async function searchPersonas(
  store: PersonaStore,
  actor: Actor,
  query: string,
  options: { filter?: ChoiceFilter; exclude?: (s: PersonaSummary) => boolean } = {},
): Promise<PersonaSummary[]> {
  const { filter = 'visible', exclude = () => false } = options;
  // The index is in memory; asking for more covers what the filters drop.
  const found = await store.search(actor, query, MAX_CHOICES * 8);
  return found.filter((s) => (filter === 'visible' || mayEdit(actor, s).ok) && !exclude(s)).slice(0, MAX_CHOICES);
}

async function personaChoices(
  store: PersonaStore,
  actor: Actor,
  query: string,
  filter: ChoiceFilter,
): Promise<{ name: string; value: string }[]> {
  return (await searchPersonas(store, actor, query, { filter })).map((s) => ({ name: label(s), value: s.id }));
}

/** The `persona` option's autocomplete: the personas the person may see, or only those they may change. */
export function personaAutocomplete(filter: ChoiceFilter) {
  return async (i: AutocompleteInteraction, deps: PersonaDeps): Promise<void> => {
    await i.respond(await personaChoices(deps.personas, actorOf(i), i.options.getFocused(), filter));
  };
}
