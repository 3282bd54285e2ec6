import { err, type Result } from '../result.ts';
import { personaError, type PersonaError } from '../persona/errors.ts';
import { visibleScopeKeys, type Actor } from '../persona/permissions.ts';
import type { Persona } from '../persona/persona.ts';
import { nameKey } from '../persona/text.ts';
import type { PrismaClient } from './generated/client.ts';
import type { PersonaAccess } from './persona-access.ts';
import type { PersonaSummary } from './persona-search.ts';

/** Finding personas: by id or name from the database, listed or searched from the index. */
export interface PersonaReads {
  get(actor: Actor, id: string): Promise<Result<Persona, PersonaError>>;
  /** The actor's own persona of that name first, then the server's, then everyone's. */
  getByName(actor: Actor, name: string): Promise<Result<Persona, PersonaError>>;
  /** Visible personas, from the in-memory index. */
  list(actor: Actor): Promise<PersonaSummary[]>;
  /** For autocomplete, from the in-memory index (at most 25). */
  search(actor: Actor, query: string, limit?: number): Promise<PersonaSummary[]>;
}

export function personaReads(prisma: PrismaClient, access: PersonaAccess): PersonaReads {
  return {
    get: (actor, id) => access.visible(actor, id),

    async getByName(actor, name) {
      const rows = await prisma.persona.findMany({
        where: { nameKey: nameKey(name), scopeKey: { in: visibleScopeKeys(actor) } },
        select: { id: true, scopeKey: true },
      });
      const row = visibleScopeKeys(actor)
        .map((k) => rows.find((r) => r.scopeKey === k))
        .find((r) => r !== undefined);
      if (row === undefined) return err(personaError('not_found', `No persona named "${name}".`));
      return access.visible(actor, row.id);
    },

    async list(actor) {
      await access.ready();
      return access.index.search(actor, '', Number.MAX_SAFE_INTEGER);
    },

    async search(actor, query, limit) {
      await access.ready();
      return access.index.search(actor, query, limit);
    },
  };
}
