import { personaError, type PersonaError } from '../persona/errors.ts';
import { Prisma } from './generated/client.ts';

/** Every change to a persona or a part it uses drops its compiled renderings. */
export const STALE_COMPILED = { compiledSummary: Prisma.DbNull, compiledDetail: Prisma.DbNull, compiledAt: null } as const;

/** A write that expected another version than the stored one. */
export function staleError(current: number, expected: number): PersonaError {
  return personaError(
    'stale',
    `Someone saved this persona since you opened it (version ${current}, yours was ${expected}); reload it and apply your change again.`,
  );
}
