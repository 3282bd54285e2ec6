import { err, ok, type Result } from '../result.ts';
import { personaError, type PersonaError } from '../persona/errors.ts';
import { canSee, mayEdit, type Actor } from '../persona/permissions.ts';
import { personaName, type Persona } from '../persona/persona.ts';
import type { PrismaClient } from './generated/client.ts';
import { PersonaCache } from './persona-cache.ts';
import { PERSONA_INCLUDE, personaOfRow, scopeOfRow } from './persona-rows.ts';
import { PersonaIndex } from './persona-search.ts';

/** What every part of the persona store shares: loading a persona for an actor, and the index. */
export interface PersonaAccess {
  /** Every persona's summary in memory, for list and search; kept current by the writes. */
  readonly index: PersonaIndex;
  /** Fills the index from the database, once. */
  ready(): Promise<void>;
  load(id: string): Promise<Persona | null>;
  /** The persona if the actor may see it; 'not_found' otherwise, never 'forbidden'. */
  visible(actor: Actor, id: string): Promise<Result<Persona, PersonaError>>;
  /** The persona if the actor may change it. */
  editable(actor: Actor, id: string): Promise<Result<Persona, PersonaError>>;
  /** Reads back a persona just written and refreshes its index entry. */
  saved(id: string): Promise<Result<Persona, PersonaError>>;
}

export function createPersonaAccess(prisma: PrismaClient): PersonaAccess {
  const index = new PersonaIndex();
  let loaded: Promise<void> | null = null;
  const ready = (): Promise<void> =>
    (loaded ??= prisma.persona
      .findMany({ select: { id: true, name: true, scope: true, guildId: true, ownerId: true, builtIn: true, tags: true } })
      .then((rows) =>
        index.replaceAll(
          rows.map((r) => ({ id: r.id, name: r.name, scope: scopeOfRow(r), ownerId: r.ownerId, builtIn: r.builtIn, tags: r.tags })),
        ),
      ));
  const remember = (p: Persona): void =>
    index.put({ id: p.id, name: personaName(p), scope: p.scope, ownerId: p.ownerId, builtIn: p.builtIn, tags: p.tags });

  const cache = new PersonaCache(prisma);
  const load = (id: string): Promise<Persona | null> =>
    cache.load(id, async () => {
      const row = await prisma.persona.findUnique({ where: { id }, include: PERSONA_INCLUDE });
      return row === null ? null : personaOfRow(row);
    });

  async function visible(actor: Actor, id: string): Promise<Result<Persona, PersonaError>> {
    const persona = await load(id);
    if (persona === null || !canSee(actor, persona)) return err(personaError('not_found', 'No such persona.'));
    return ok(persona);
  }

  async function editable(actor: Actor, id: string): Promise<Result<Persona, PersonaError>> {
    const persona = await load(id);
    if (persona === null) return err(personaError('not_found', 'No such persona.'));
    const allowed = mayEdit(actor, persona);
    return allowed.ok ? ok(persona) : allowed;
  }

  async function saved(id: string): Promise<Result<Persona, PersonaError>> {
    const persona = await load(id);
    if (persona === null) throw new Error(`persona ${id} vanished right after it was written`);
    remember(persona);
    return ok(persona);
  }

  return { index, ready, load, visible, editable, saved };
}
