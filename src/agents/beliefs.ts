import { z } from 'zod';
import { getRole, isMafia, ROLE_IDS, type RoleId } from '../game/index.ts';

/** One player's read of another: how likely Mafia, how far to trust them, and why. */
const BeliefSchema = z.object({
  suspicion: z.number().min(0).max(1).describe('0 = surely town, 1 = surely Mafia'),
  trust: z.number().min(0).max(1).describe('0 = ignore what they say, 1 = take it as true'),
  reason: z.string().max(200).describe('One line: why'),
});

export const BeliefsSchema = z.record(z.string(), BeliefSchema);
export type Beliefs = z.infer<typeof BeliefsSchema>;
type Belief = Beliefs[string];

/** The read of a player whose role the seat knows: a certainty, its own side trusted (a Mafia seat's teammate too), the other not. */
export function knownRoleRead(role: RoleId, myRole: RoleId | null): Belief {
  const mafia = isMafia(role);
  return { suspicion: mafia ? 1 : 0, trust: mafia === isMafia(myRole) ? 1 : 0, reason: KNOWN[role] };
}

// The reason line of each role, written once rather than for every known seat of every decision.
const KNOWN = Object.fromEntries(ROLE_IDS.map((id) => [id, `known ${getRole(id).name}`])) as Record<RoleId, string>;
