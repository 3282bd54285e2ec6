import { z } from 'zod';
import { getRole, isMafia, ROLE_IDS, RoleIdSchema, VotingBlocSchema, type RoleId } from '../game/index.ts';

/** A seat's guess at another player's role ("likely Detective"): the game's role ids; no guess is null. */
export const RoleGuessSchema = RoleIdSchema.describe('The role you think this player most likely has, or null for no guess');

/** One player's read of another: how likely Mafia, how far to trust them, what role they likely hold, and why. */
export const BeliefSchema = z.object({
  suspicion: z.number().min(0).max(1).describe('0 = surely town, 1 = surely Mafia'),
  trust: z.number().min(0).max(1).describe('0 = ignore what they say, 1 = take it as true'),
  reason: z.string().max(200).describe('One line: why'),
  /** Absent in minds and answers written before role guesses existed. */
  roleGuess: RoleGuessSchema.nullable().optional(),
});

export const BeliefsSchema = z.record(z.string(), BeliefSchema);
export type Beliefs = z.infer<typeof BeliefsSchema>;
type Belief = Beliefs[string];

/** Voting blocs (seed 001's relationship map) are facts of the public tallies, so the events own their schema. */
export type { VotingBloc } from '../game/index.ts';
export const VotingBlocsSchema = z.array(VotingBlocSchema);

/** The read of a player whose role the seat knows: a certainty, its own side trusted (a Mafia seat's teammate too), the other not. */
export function knownRoleRead(role: RoleId, myRole: RoleId | null): Belief {
  const mafia = isMafia(role);
  return { suspicion: mafia ? 1 : 0, trust: mafia === isMafia(myRole) ? 1 : 0, reason: KNOWN[role] };
}

// The reason line of each role, written once rather than for every known seat of every decision.
const KNOWN = Object.fromEntries(ROLE_IDS.map((id) => [id, `known ${getRole(id).name}`])) as Record<RoleId, string>;
