import { canSee, type Actor } from '../persona/permissions.ts';
import type { Scope } from '../persona/persona.ts';
import { nameKey } from '../persona/text.ts';

/** What autocomplete shows for a persona. */
export interface PersonaSummary {
  readonly id: string;
  readonly name: string;
  readonly scope: Scope;
  readonly ownerId: string;
  readonly builtIn: boolean;
  readonly tags: readonly string[];
}

/** Discord shows at most 25 autocomplete choices. */
const SEARCH_LIMIT = 25;

/**
 * Every persona's summary in memory, kept current by the store that owns it, so autocomplete
 * never waits on the database. (Another process's writes show up after its next reload.)
 */
export class PersonaIndex {
  /** One entry per stored persona (bound: the persona table; a summary is a few hundred bytes). */
  readonly #byId = new Map<string, PersonaSummary & { key: string }>();

  replaceAll(summaries: readonly PersonaSummary[]): void {
    this.#byId.clear();
    for (const s of summaries) this.put(s);
  }

  put(summary: PersonaSummary): void {
    this.#byId.set(summary.id, { ...summary, key: nameKey(summary.name) });
  }

  remove(id: string): void {
    this.#byId.delete(id);
  }

  /** Visible personas, names starting with the query first, then a word starting with it, then containing it. */
  search(actor: Actor, query: string, limit = SEARCH_LIMIT): PersonaSummary[] {
    const q = nameKey(query);
    const ranked: { rank: number; item: PersonaSummary & { key: string } }[] = [];
    for (const item of this.#byId.values()) {
      if (!canSee(actor, item)) continue;
      const rank =
        q === '' || item.key.startsWith(q)
          ? 0
          : item.key.split(/[\s.'’-]+/).some((w) => w.startsWith(q))
            ? 1
            : item.key.includes(q)
              ? 2
              : -1;
      if (rank >= 0) ranked.push({ rank, item });
    }
    ranked.sort((a, b) => a.rank - b.rank || a.item.key.localeCompare(b.item.key) || a.item.id.localeCompare(b.item.id));
    return ranked.slice(0, limit).map(({ item: { key: _key, ...summary } }) => summary);
  }
}
