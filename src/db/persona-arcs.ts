import { err, ok, type Result } from '../result.ts';
import { advanceArc, resetArc } from '../persona/compose.ts';
import type { ArcProgress } from '../persona/composition.ts';
import { personaError, type PersonaError } from '../persona/errors.ts';
import type { Actor } from '../persona/permissions.ts';
import { personaName, type Persona } from '../persona/persona.ts';
import type { PrismaClient } from './generated/client.ts';
import type { PersonaAccess } from './persona-access.ts';
import { STALE_COMPILED, staleError } from './persona-versions.ts';

/** Moving a persona along its arc, a new version each step. */
export interface PersonaArcs {
  advanceArc(actor: Actor, id: string, expectedVersion: number): Promise<Result<Persona, PersonaError>>;
  resetArc(actor: Actor, id: string, expectedVersion: number): Promise<Result<Persona, PersonaError>>;
}

export function personaArcs(prisma: PrismaClient, access: PersonaAccess): PersonaArcs {
  async function moveArc(actor: Actor, id: string, expectedVersion: number, step: (arc: ArcProgress) => Result<ArcProgress, PersonaError>) {
    const persona = await access.editable(actor, id);
    if (!persona.ok) return persona;
    if (persona.value.arc === null) return err(personaError('invalid', `${personaName(persona.value)} has no arc.`));
    const next = step(persona.value.arc);
    if (!next.ok) return next;
    const claimed = await prisma.persona.updateMany({
      where: { id, version: expectedVersion },
      data: { arcStage: next.value.stage, version: { increment: 1 }, ...STALE_COMPILED },
    });
    if (claimed.count === 0) return err(staleError(persona.value.version, expectedVersion));
    return access.saved(id);
  }

  return {
    advanceArc: (actor, id, expectedVersion) => moveArc(actor, id, expectedVersion, advanceArc),
    resetArc: (actor, id, expectedVersion) => moveArc(actor, id, expectedVersion, (arc) => ok(resetArc(arc))),
  };
}
