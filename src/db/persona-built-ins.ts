import { err, ok, type Result } from '../result.ts';
import { personaError, type PersonaError } from '../persona/errors.ts';
import { STARTER_OWNER } from '../persona/permissions.ts';
import { exportPersonaJson } from '../persona/persona-json.ts';
import { personaName } from '../persona/persona.ts';
import { nameKey } from '../persona/text.ts';
import type { PrismaClient } from './generated/client.ts';
import type { PersonaAccess } from './persona-access.ts';
import { createIn, replaceContent, validContent } from './persona-content-writes.ts';

type BuiltInOutcome = 'created' | 'updated' | 'unchanged';

/** The starter pack's read-only personas. */
export interface PersonaBuiltIns {
  /** The starter pack's way in: creates or refreshes a read-only persona visible everywhere. */
  upsertBuiltIn(content: unknown): Promise<Result<BuiltInOutcome, PersonaError>>;
}

export function personaBuiltIns(prisma: PrismaClient, access: PersonaAccess): PersonaBuiltIns {
  return {
    async upsertBuiltIn(input) {
      await access.ready();
      const content = validContent(input);
      if (!content.ok) return content;
      const existing = await prisma.persona.findUnique({
        where: { scopeKey_nameKey: { scopeKey: 'everyone', nameKey: nameKey(personaName(content.value)) } },
        select: { id: true, builtIn: true },
      });
      if (existing === null) {
        const created = await createIn(prisma, { scope: { kind: 'everyone' }, ownerId: STARTER_OWNER, builtIn: true }, content.value, null);
        if (!created.ok) return created;
        await access.saved(created.value);
        return ok('created');
      }
      if (!existing.builtIn) {
        return err(personaError('name_taken', `A user persona already uses the starter name "${personaName(content.value)}".`));
      }
      const current = await access.load(existing.id);
      if (current === null) throw new Error(`persona ${existing.id} vanished`);
      if (exportPersonaJson(current) === exportPersonaJson(content.value)) return ok('unchanged');
      const replaced = await replaceContent(prisma, current, current.version, content.value);
      if (!replaced.ok) return replaced;
      await access.saved(existing.id);
      return ok('updated');
    },
  };
}
