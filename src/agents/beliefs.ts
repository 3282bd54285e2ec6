import { z } from 'zod';

/** One player's read of another: how likely Mafia, how far to trust them, and why. */
const BeliefSchema = z.object({
  suspicion: z.number().min(0).max(1).describe('0 = surely town, 1 = surely Mafia'),
  trust: z.number().min(0).max(1).describe('0 = ignore what they say, 1 = take it as true'),
  reason: z.string().max(200).describe('One line: why'),
});

export const BeliefsSchema = z.record(z.string(), BeliefSchema);
export type Beliefs = z.infer<typeof BeliefsSchema>;
