import { z } from 'zod';
import { TACTICS_ROLES } from '../persona/profile.ts';

/**
 * A session is a flat sequence of turns, each a first-class item the Discord layer can show.
 * A tool_call and its tool_result share `callId`; the assistant_text and tool_calls of one model
 * response share `responseId`, which is how history groups them back into one assistant message.
 */
export type EditorTurn =
  | { readonly kind: 'user'; readonly seq: number; readonly text: string; readonly at: Date }
  | { readonly kind: 'assistant_text'; readonly seq: number; readonly text: string; readonly responseId: string; readonly at: Date }
  | {
      readonly kind: 'tool_call';
      readonly seq: number;
      readonly callId: string;
      readonly toolName: string;
      readonly input: unknown;
      readonly responseId: string;
      readonly at: Date;
    }
  | {
      readonly kind: 'tool_result';
      readonly seq: number;
      readonly callId: string;
      readonly toolName: string;
      readonly text: string;
      readonly isError: boolean;
      readonly at: Date;
    }
  /** A message stopped while it waited its turn: kept for the record, never sent to the model. */
  | { readonly kind: 'unsent'; readonly seq: number; readonly text: string; readonly at: Date }
  /** A run that ended in failure, with the sentence the user was shown: a record, never sent to the model. */
  | { readonly kind: 'failed'; readonly seq: number; readonly reason: FailureReason; readonly text: string; readonly at: Date };

/**
 * Why a run failed. A model call's failure by category (its provider's own words go to the log
 * only), or: no model configured, the server's budget spent, the persona gone or no longer
 * editable, a bug on our side, the bot restarted mid-run.
 */
export const FAILURE_REASONS = [
  'overloaded',
  'rate_limited',
  'timeout',
  'network',
  'refused',
  'rejected',
  'auth',
  'model_unavailable',
  'server',
  'bad_response',
  'no_model',
  'budget',
  'persona_gone',
  'internal',
  'restart',
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

/** A turn before the store numbers and dates it. */
export type NewEditorTurn = DistributiveOmit<EditorTurn, 'seq' | 'at'>;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Where the conversation happens on Discord; the Discord layer routes messages by threadId. */
export interface EditorPlace {
  readonly guildId: string | null;
  readonly channelId: string | null;
  readonly threadId: string | null;
}

export interface EditorSession extends EditorPlace {
  readonly id: string;
  readonly personaId: string;
  readonly ownerId: string;
  readonly active: boolean;
  /** What the turns up to `summarizedThrough` said; the model gets this instead of them. */
  readonly summary: string;
  readonly summarizedThrough: number;
  readonly createdAt: Date;
}

export const TEST_INPUT_LIMITS = { content: 1000, perPersona: 20 } as const;

const testContentSchema = z
  .string({ error: 'expected text' })
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(TEST_INPUT_LIMITS.content, { error: `must be at most ${TEST_INPUT_LIMITS.content} characters` });
export const testRoleSchema = z.enum(TACTICS_ROLES, { error: `expected one of ${TACTICS_ROLES.join(', ')}` });

/** What a test input is: a situation said to the persona, in a role whose tactics apply. */
export const testInputSchema = z.strictObject({
  content: testContentSchema.describe('What is said or happens to the persona, e.g. "Two players accuse you of being Mafia. Respond."'),
  role: testRoleSchema.default('town').describe('The role the persona plays in this test; its tactics for that role apply'),
});
export type TestInputContent = z.infer<typeof testInputSchema>;

/** A change to a test input: at least one of its fields. */
export const testInputPatchSchema = z
  .strictObject({ content: testContentSchema.optional(), role: testRoleSchema.optional() })
  .refine((patch) => patch.content !== undefined || patch.role !== undefined, { error: 'change the content or the role' });

export interface TestInput extends TestInputContent {
  readonly id: string;
}
