import { z } from 'zod';

/** Reusable building blocks of a persona (seed 003). */
export const PART_TYPES = [
  'soul',
  'identity',
  'backstory',
  'motivation',
  'voice',
  'tone',
  'archetype',
  'flaw',
  'relationship',
  'goal',
  'tactics',
  'context',
  'system',
] as const;
export type PartType = (typeof PART_TYPES)[number];

const TRAIT_TYPES = ['personality', 'cognitive', 'emotional', 'social', 'behavioral'] as const;

export const COMPOSITION_LIMITS = {
  name: 60,
  summary: 300,
  content: 2000,
  traitDescription: 200,
  traitInstruction: 400,
  partsPerPersona: 12,
  traitsPerPersona: 8,
  stages: 10,
  partsPerStage: 6,
} as const;

const C = COMPOSITION_LIMITS;

/** A name people type in commands: letters, digits, spaces, - _ . ' */
export const entityNameSchema = z
  .string({ error: 'expected a name' })
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(C.name, { error: `must be at most ${C.name} characters` })
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} _.'’-]*$/u, { error: "may hold only letters, digits, spaces and - _ . '" });

const prose = (max: number) =>
  z
    .string({ error: 'expected text' })
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(max, { error: `must be at most ${max} characters` });

export const partSchema = z.strictObject({
  name: entityNameSchema,
  type: z.enum(PART_TYPES, { error: `expected one of ${PART_TYPES.join(', ')}` }),
  /** Used in the summary rendering. */
  summary: prose(C.summary),
  /** Used in the detail rendering. */
  content: prose(C.content),
});
export type Part = z.infer<typeof partSchema>;

export const traitSchema = z.strictObject({
  name: entityNameSchema,
  type: z.enum(TRAIT_TYPES, { error: `expected one of ${TRAIT_TYPES.join(', ')}` }),
  description: prose(C.traitDescription),
  /** How to apply the trait in play; this is what the prompt gets. */
  instruction: prose(C.traitInstruction),
});
export type Trait = z.infer<typeof traitSchema>;

const arcStageSchema = z.strictObject({
  name: entityNameSchema,
  /** When to move on; judged by whoever advances the arc. */
  condition: z
    .string()
    .trim()
    .max(C.summary, { error: `must be at most ${C.summary} characters` }),
  parts: z.array(partSchema).max(C.partsPerStage, { error: `allows at most ${C.partsPerStage} parts a stage` }),
});

export const arcSchema = z.strictObject({
  name: entityNameSchema,
  summary: prose(C.summary),
  stages: z
    .array(arcStageSchema)
    .min(1, { error: 'needs at least one stage' })
    .max(C.stages, { error: `allows at most ${C.stages} stages` }),
});
export type Arc = z.infer<typeof arcSchema>;

/** A persona's place in its arc: the arc and the index of the current stage. */
export const arcProgressSchema = z
  .strictObject({ arc: arcSchema, stage: z.number().int().min(0) })
  .refine((p) => p.stage < p.arc.stages.length, { error: 'stage is past the last stage of the arc', path: ['stage'] });
export type ArcProgress = z.infer<typeof arcProgressSchema>;

/** The parts and traits of one persona: names unique, within the limits. */
export const partListSchema = z
  .array(partSchema)
  .max(C.partsPerPersona, { error: `allows at most ${C.partsPerPersona} parts` })
  .superRefine(uniqueNames('part'));
export const traitListSchema = z
  .array(traitSchema)
  .max(C.traitsPerPersona, { error: `allows at most ${C.traitsPerPersona} traits` })
  .superRefine(uniqueNames('trait'));

function uniqueNames(what: string) {
  return (items: readonly { name: string }[], ctx: z.RefinementCtx) => {
    const seen = new Set<string>();
    for (const item of items) {
      const key = item.name.toLowerCase();
      if (seen.has(key)) ctx.addIssue({ code: 'custom', message: `the ${what} "${item.name}" is listed twice` });
      seen.add(key);
    }
  };
}
