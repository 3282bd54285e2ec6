import { err, ok, type Result } from '../result.ts';
import { partSchema, type Part } from '../persona/composition.ts';
import { describeIssues, personaError, type PersonaError } from '../persona/errors.ts';
import { mayEdit, visibleScopeKeys, type Actor } from '../persona/permissions.ts';
import { scopeOfKey } from '../persona/scope-key.ts';
import { nameKey } from '../persona/text.ts';
import type { PrismaClient } from './generated/client.ts';
import { partOfRow } from './persona-rows.ts';
import { writePersonas } from './persona-transaction.ts';
import { STALE_COMPILED } from './persona-versions.ts';

/** Parts shared between personas, looked up and edited by name. */
export interface PersonaParts {
  /** A part the actor can see, by name (own, then server, then everyone). */
  findPart(actor: Actor, name: string): Promise<Result<Part, PersonaError>>;
  /** Changes a shared part; every persona using it recompiles. */
  updatePart(actor: Actor, name: string, part: unknown): Promise<Result<Part, PersonaError>>;
}

/** The part of that name in the first of `scopeKeys` that has one. */
export async function findVisiblePart(prisma: PrismaClient, scopeKeys: readonly string[], name: string): Promise<Part | null> {
  const rows = await prisma.personaPart.findMany({ where: { nameKey: nameKey(name), scopeKey: { in: [...scopeKeys] } } });
  const row = scopeKeys.map((k) => rows.find((r) => r.scopeKey === k)).find((r) => r !== undefined);
  return row === undefined ? null : partOfRow(row);
}

export function personaParts(prisma: PrismaClient): PersonaParts {
  return {
    async findPart(actor, name) {
      const part = await findVisiblePart(prisma, visibleScopeKeys(actor), name);
      return part === null ? err(personaError('not_found', `No part named "${name}".`)) : ok(part);
    },

    async updatePart(actor, name, input) {
      const parsed = partSchema.safeParse(input);
      if (!parsed.success) return err(personaError('invalid', `The part is invalid: ${describeIssues(parsed.error)}.`));
      const part = parsed.data;
      if (nameKey(part.name) !== nameKey(name))
        return err(personaError('invalid', 'A part keeps its name; create a new part to rename it.'));
      const rows = await prisma.personaPart.findMany({ where: { nameKey: nameKey(name), scopeKey: { in: visibleScopeKeys(actor) } } });
      const row = visibleScopeKeys(actor)
        .map((k) => rows.find((r) => r.scopeKey === k))
        .find((r) => r !== undefined);
      if (row === undefined) return err(personaError('not_found', `No part named "${name}".`));
      const { scope, ownerId } = scopeOfKey(row.scopeKey);
      const allowed = mayEdit(actor, { scope, ownerId: ownerId ?? row.ownerId, builtIn: row.builtIn }, 'part');
      if (!allowed.ok) return allowed;
      if (part.type !== row.type) return err(personaError('invalid', `"${row.name}" is a ${row.type} part; its type cannot change.`));
      const written = await writePersonas(prisma, async (tx) => {
        await tx.personaPart.update({ where: { id: row.id }, data: { summary: part.summary, content: part.content } });
        await tx.persona.updateMany({
          where: { OR: [{ parts: { some: { partId: row.id } } }, { arc: { stages: { some: { parts: { some: { partId: row.id } } } } } }] },
          data: STALE_COMPILED,
        });
      });
      return written.ok ? ok(part) : written;
    },
  };
}
