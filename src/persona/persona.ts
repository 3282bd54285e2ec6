import { z } from 'zod';
import { LLM_PROVIDERS } from '../config.ts';
import { cardExtrasSchema } from './card-extras.ts';
import { arcProgressSchema, partListSchema, traitListSchema } from './composition.ts';
import { profileSchema } from './profile.ts';

/** A Discord snowflake. */
const discordIdSchema = z.string().regex(/^\d{1,25}$/, { error: 'expected a Discord id (digits)' });

/** Who sees a persona: its owner only, one server, or every server. */
export const scopeSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('private') }),
    z.strictObject({ kind: z.literal('server'), guildId: discordIdSchema }),
    z.strictObject({ kind: z.literal('everyone') }),
  ],
  { error: 'expected a scope: private, server (with a guild id) or everyone' },
);
export type Scope = z.infer<typeof scopeSchema>;

export const PERSONA_LIMITS = { tags: 10, tagChars: 30, notes: 2000, avatarUrl: 500, model: 100 } as const;

/**
 * The model a persona prefers to play on. A provider the bot has no key for is skipped (the game's
 * or the environment's is used), so a persona that prefers Claude still plays where only OpenAI is set.
 */
export const modelPreferenceSchema = z.strictObject({
  provider: z.enum(LLM_PROVIDERS).optional(),
  model: z
    .string()
    .trim()
    .min(1)
    .max(PERSONA_LIMITS.model, { error: `must be at most ${PERSONA_LIMITS.model} characters` })
    .optional(),
});

/** Everything about a persona that its editors change, that exports carry and that renders. */
export const personaContentSchema = z.strictObject({
  profile: profileSchema,
  avatarUrl: z
    .url({ protocol: /^https?$/, error: 'expected an http(s) URL' })
    .max(PERSONA_LIMITS.avatarUrl, { error: `must be at most ${PERSONA_LIMITS.avatarUrl} characters` })
    .nullable(),
  /** Absent or null: the game's or the environment's model. */
  model: modelPreferenceSchema.nullable().optional(),
  tags: z
    .array(
      z
        .string()
        .trim()
        .min(1, { error: 'must not be empty' })
        .max(PERSONA_LIMITS.tagChars, { error: `must be at most ${PERSONA_LIMITS.tagChars} characters` }),
    )
    .max(PERSONA_LIMITS.tags, { error: `allows at most ${PERSONA_LIMITS.tags} tags` }),
  /** Free notes for editors (the card importer says here what it guessed); never rendered. */
  notes: z
    .string()
    .trim()
    .max(PERSONA_LIMITS.notes, { error: `must be at most ${PERSONA_LIMITS.notes} characters` }),
  /** Ordered: the order they render in. */
  parts: partListSchema,
  traits: traitListSchema,
  arc: arcProgressSchema.nullable(),
  card: cardExtrasSchema.nullable(),
});
export type PersonaContent = z.infer<typeof personaContentSchema>;

/** A stored persona. */
export interface Persona extends PersonaContent {
  readonly id: string;
  /** A Discord user id; `dramatis` for the starter pack. */
  readonly ownerId: string;
  readonly scope: Scope;
  /** The starter pack: read-only, visible in every server. */
  readonly builtIn: boolean;
  readonly version: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export const personaName = (persona: Pick<PersonaContent, 'profile'>): string => persona.profile.identity.name;
