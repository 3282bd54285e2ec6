import { DEFAULT_PERSONA_CAPS, type PersonaCaps } from '../config.ts';
import type { PrismaClient } from './generated/client.ts';
import { createPersonaAccess } from './persona-access.ts';
import { personaArcs, type PersonaArcs } from './persona-arcs.ts';
import { personaBuiltIns, type PersonaBuiltIns } from './persona-built-ins.ts';
import { personaParts, type PersonaParts } from './persona-parts.ts';
import { personaReads, type PersonaReads } from './persona-reads.ts';
import { personaRendering, type PersonaRendering } from './persona-rendering.ts';
import { personaSeats, type PersonaSeats } from './persona-seats.ts';
import { personaWrites, type PersonaWrites } from './persona-writes.ts';

export type { PersonaSummary } from './persona-search.ts';

/**
 * Personas over Prisma. Every input is validated by the persona schemas; every refusal comes
 * back as a PersonaError and writes nothing. Permissions are checked against the `actor`.
 * Each concern lives in its own file; they share one PersonaAccess (loading and the index).
 */
export interface PersonaStore
  extends PersonaReads, PersonaWrites, PersonaArcs, PersonaRendering, PersonaParts, PersonaBuiltIns, PersonaSeats {}

export function createPersonaStore(prisma: PrismaClient, caps: PersonaCaps = DEFAULT_PERSONA_CAPS): PersonaStore {
  const access = createPersonaAccess(prisma);
  return {
    ...personaReads(prisma, access),
    ...personaWrites(prisma, access, caps),
    ...personaArcs(prisma, access),
    ...personaRendering(prisma, access),
    ...personaParts(prisma),
    ...personaBuiltIns(prisma, access),
    ...personaSeats(prisma),
  };
}
