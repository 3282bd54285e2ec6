import { z } from 'zod';

/**
 * What a Character Card brought that a profile has no field for, kept so the card exports back
 * as it came: greetings, creator fields and above all `extensions`, which editors must preserve.
 */
export const cardExtrasSchema = z.strictObject({
  description: z.string().max(20_000),
  personality: z.string().max(5_000),
  scenario: z.string().max(5_000),
  firstMessage: z.string().max(20_000),
  exampleMessages: z.string().max(20_000),
  systemPrompt: z.string().max(10_000),
  postHistoryInstructions: z.string().max(10_000),
  alternateGreetings: z.array(z.string().max(20_000)).max(50),
  creatorNotes: z.string().max(10_000),
  creator: z.string().max(200),
  characterVersion: z.string().max(100),
  tags: z.array(z.string().max(100)).max(100),
  extensions: z.record(z.string(), z.unknown()),
});
export type CardExtras = z.infer<typeof cardExtrasSchema>;
