import { z } from 'zod';
import { countWords, splitSentences } from './text.ts';

/** The roles a persona brings its own tactics for (seed 001). */
export const TACTICS_ROLES = ['town', 'mafia', 'detective', 'doctor'] as const;
export type TacticsRole = (typeof TACTICS_ROLES)[number];

/** Every bound in one place, so errors, prompts and docs agree. */
export const PROFILE_LIMITS = {
  name: { min: 1, max: 60 },
  background: { maxChars: 400, maxSentences: 2 },
  coreTraits: { min: 3, max: 5, maxChars: 40 },
  voice: { minWords: 25, maxWords: 40, maxChars: 320 },
  approach: { minWords: 40, maxWords: 60, maxChars: 480 },
  signaturePhrases: { max: 3, maxChars: 100 },
  signatureMoves: { max: 2, maxChars: 160 },
  tactics: { min: 2, max: 5, maxChars: 160 },
  prose: { maxChars: 400 }, // personality, speech style, decision style
} as const;

const text = (max: number, what = 'text') =>
  z
    .string({ error: `expected ${what}` })
    .trim()
    .max(max, { error: `must be at most ${max} characters` });

const required = (max: number, what?: string) => text(max, what).min(1, { error: 'must not be empty' });

const words = (min: number, max: number, maxChars: number) =>
  required(maxChars).superRefine((value, ctx) => {
    const n = countWords(value);
    if (n < min || n > max) ctx.addIssue({ code: 'custom', message: `must be ${min}–${max} words (it has ${n})` });
  });

const list = <T extends z.ZodType>(item: T, min: number, max: number, what: string) =>
  z
    .array(item, { error: `expected a list of ${what}` })
    .min(min, { error: `needs at least ${min} ${what}` })
    .max(max, { error: `allows at most ${max} ${what}` });

const L = PROFILE_LIMITS;
const bullets = list(required(L.tactics.maxChars), L.tactics.min, L.tactics.max, 'tactics');

export const identitySchema = z.strictObject({
  name: required(L.name.max, 'a name'),
  /** 1–2 sentences that inform motivation. */
  background: required(L.background.maxChars).superRefine((value, ctx) => {
    const n = splitSentences(value).length;
    if (n > L.background.maxSentences) ctx.addIssue({ code: 'custom', message: `must be 1–2 sentences (it has ${n})` });
  }),
  /** Role-neutral traits. */
  coreTraits: list(required(L.coreTraits.maxChars), L.coreTraits.min, L.coreTraits.max, 'core traits'),
});

export const playStyleSchema = z.strictObject({
  /** Vocabulary, rhythm, tone. */
  voice: words(L.voice.minWords, L.voice.maxWords, L.voice.maxChars),
  /** Decision style, risk posture, accuse/defend tendencies. */
  approach: words(L.approach.minWords, L.approach.maxWords, L.approach.maxChars),
  signaturePhrases: list(required(L.signaturePhrases.maxChars), 0, L.signaturePhrases.max, 'signature phrases'),
  signatureMoves: list(required(L.signatureMoves.maxChars), 0, L.signatureMoves.max, 'signature moves'),
});

/** Short, actionable moves per role; persona-specific, not the generic playbook. */
export const tacticsSchema = z.strictObject({
  town: bullets,
  mafia: bullets,
  detective: bullets,
  doctor: bullets,
});

/**
 * What a persona is (seed 001's structure with seed 000's prose fields). Everything here reaches
 * the prompt; ownership, scope and composition live on the persona record around it.
 */
export const profileSchema = z.strictObject({
  identity: identitySchema,
  playStyle: playStyleSchema,
  tactics: tacticsSchema,
  /** Temperament, values, quirks ('' when the play style says it all). */
  personality: text(L.prose.maxChars),
  /** Vocabulary and patterns beyond the voice line. */
  speechStyle: text(L.prose.maxChars),
  /** Strategic, impulsive, cautious … */
  decisionStyle: text(L.prose.maxChars),
});

export type Profile = z.infer<typeof profileSchema>;
export type Tactics = z.infer<typeof tacticsSchema>;
