import type { PersonaCaps } from '../config.ts';
import { personaError, type PersonaError } from '../persona/errors.ts';
import type { PrismaClient } from './generated/client.ts';
import { Refusal, type Tx } from './persona-transaction.ts';

const AND_THEN = 'Delete one with /persona delete, then try again.';

interface NewOwner {
  readonly ownerId: string;
  /** The server of a server persona; null for any other scope. */
  readonly guildId: string | null;
}

/** Holds a lock on `key` until the transaction ends; two creates for one owner or server take turns. */
async function lock(tx: Tx | PrismaClient, key: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${key}))`;
}

/** Why one more persona of this owner (or server) is past a cap, or null when there is room. */
async function pastCaps(db: Tx | PrismaClient, caps: PersonaCaps, owner: NewOwner, locked: boolean): Promise<PersonaError | null> {
  if (caps.perUser > 0) {
    if (locked) await lock(db, `dramatis:personas:owner:${owner.ownerId}`);
    const owned = await db.persona.count({ where: { ownerId: owner.ownerId, builtIn: false } });
    if (owned >= caps.perUser) {
      return personaError('too_many', `You already have ${owned} personas; the limit is ${caps.perUser} a person. ${AND_THEN}`);
    }
  }
  if (caps.perServer > 0 && owner.guildId !== null) {
    if (locked) await lock(db, `dramatis:personas:server:${owner.guildId}`);
    const held = await db.persona.count({ where: { scope: 'server', guildId: owner.guildId, builtIn: false } });
    if (held >= caps.perServer) {
      return personaError(
        'too_many',
        `This server already has ${held} server personas; the limit is ${caps.perServer} a server. ${AND_THEN}`,
      );
    }
  }
  return null;
}

/**
 * Refuses a new persona past its owner's or its server's cap. Runs in the creating transaction
 * and counts under a lock (owner first, then server, always in that order), so two creates at
 * once cannot both see room for one.
 */
export async function refusePastCaps(tx: Tx, caps: PersonaCaps, owner: NewOwner): Promise<void> {
  const refusal = await pastCaps(tx, caps, owner, true);
  if (refusal !== null) throw new Refusal(refusal);
}

/** The same question asked ahead, without a lock: so a command past its cap spends no model call first. */
export function capRefusal(prisma: PrismaClient, caps: PersonaCaps, owner: NewOwner): Promise<PersonaError | null> {
  return pastCaps(prisma, caps, owner, false);
}
