import { z } from 'zod';
import { kib } from './limits.ts';

/**
 * What a card keeps beyond its own text fields. `extensions` is whatever other tools put there
 * (SillyTavern's depth prompt, talkativeness, regex scripts, Chub's path): a few KiB on real cards,
 * so 16 KiB keeps them all while a card can no longer park megabytes on the persona row, which
 * every read loads, every edit rewrites and every export re-encodes.
 */
export const CARD_LIMITS = { extensionsBytes: 16 * 1024 } as const;

const serializedBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value));

/** The card's fields as stored before the extensions had a bound: rows read back through this. */
export const storedCardExtrasSchema = z.strictObject({
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

/**
 * What a Character Card brought that a profile has no field for, kept so the card exports back
 * as it came: greetings, creator fields and above all `extensions`, which editors must preserve.
 */
export const cardExtrasSchema = storedCardExtrasSchema.extend({
  extensions: storedCardExtrasSchema.shape.extensions.refine((value) => serializedBytes(value) <= CARD_LIMITS.extensionsBytes, {
    error: (issue) => `must be at most ${kib(CARD_LIMITS.extensionsBytes)} as JSON (it is ${kib(serializedBytes(issue.input))})`,
  }),
});
export type CardExtras = z.infer<typeof cardExtrasSchema>;
