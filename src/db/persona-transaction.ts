import { err, ok, type Result } from '../result.ts';
import { personaError, type PersonaError } from '../persona/errors.ts';
import { Prisma, type PrismaClient } from './generated/client.ts';

export type Tx = Prisma.TransactionClient;

/** Thrown inside a transaction to roll it back; caught at its edge and returned as a value. */
export class Refusal extends Error {
  constructor(readonly refusal: PersonaError) {
    super(refusal.message);
  }
}

/** Runs a write; a Refusal thrown inside rolls it back and becomes the error. */
export async function writePersonas<T>(prisma: PrismaClient, run: (tx: Tx) => Promise<T>): Promise<Result<T, PersonaError>> {
  try {
    return ok(await prisma.$transaction(run));
  } catch (error) {
    if (error instanceof Refusal) return err(error.refusal);
    if (isUniqueViolation(error)) return err(personaError('name_taken', 'That name was just taken in this scope; pick another.'));
    throw error;
  }
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';
}
