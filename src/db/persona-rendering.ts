import { err, ok, type Result } from '../result.ts';
import type { PartOverrides } from '../persona/compose.ts';
import { PART_TYPES, type PartType } from '../persona/composition.ts';
import { personaError, type PersonaError } from '../persona/errors.ts';
import { scopeKey, visibleScopeKeys, type Actor } from '../persona/permissions.ts';
import type { Persona } from '../persona/persona.ts';
import { renderedPersonaSchema, renderPersona, type RenderedPersona } from '../persona/render.ts';
import type { PrismaClient } from './generated/client.ts';
import type { PersonaAccess } from './persona-access.ts';
import { findVisiblePart } from './persona-parts.ts';

interface RenderRequest {
  readonly detail?: boolean;
  /** Part names by the type they replace, for this load only. */
  readonly overrides?: Partial<Record<PartType, string>>;
}

/** A persona's prompt block, and the compiled copy kept beside it. */
export interface PersonaRendering {
  /** The persona block; without overrides it is served from (and saved as) the compiled copy. */
  render(actor: Actor, id: string, request?: RenderRequest): Promise<Result<RenderedPersona, PersonaError>>;
}

export function personaRendering(prisma: PrismaClient, access: PersonaAccess): PersonaRendering {
  async function overridesFor(actor: Actor, persona: Persona, names: Partial<Record<PartType, string>>) {
    const out: PartOverrides = {};
    const scopes = [...new Set([...visibleScopeKeys(actor), scopeKey(persona.scope, persona.ownerId)])];
    for (const type of PART_TYPES) {
      const name = names[type];
      if (name === undefined) continue;
      const part = await findVisiblePart(prisma, scopes, name);
      if (part === null) return err(personaError('not_found', `No part named "${name}" to override ${type} with.`));
      out[type] = part;
    }
    return ok(out);
  }

  return {
    async render(actor, id, request = {}) {
      const persona = await access.visible(actor, id);
      if (!persona.ok) return persona;
      const detail = request.detail ?? false;
      const names = request.overrides ?? {};
      if (Object.keys(names).length > 0) {
        const overrides = await overridesFor(actor, persona.value, names);
        if (!overrides.ok) return overrides;
        return renderPersona(persona.value, { detail, overrides: overrides.value });
      }
      const row = await prisma.persona.findUnique({
        where: { id },
        select: { compiledSummary: true, compiledDetail: true, version: true },
      });
      const compiled = renderedPersonaSchema.safeParse(detail ? row?.compiledDetail : row?.compiledSummary);
      if (compiled.success && row?.version === persona.value.version) return ok(compiled.data);
      const rendered = renderPersona(persona.value, { detail });
      if (!rendered.ok) return rendered;
      // Saved only if nobody changed the persona meanwhile; a stale copy is never stored.
      await prisma.persona.updateMany({
        where: { id, version: persona.value.version },
        data: { [detail ? 'compiledDetail' : 'compiledSummary']: rendered.value, compiledAt: new Date() },
      });
      return rendered;
    },
  };
}
