import { z } from 'zod';
import type { DecisionKind, DecisionRequest } from '../decision.ts';
import { jsonSchemaOf } from '../llm/tool.ts';
import type { JsonSchema } from '../llm/types.ts';

export const SKIP = '(nobody)';
export const NO_LYNCH = '(no lynch)';
export const MAX_SPEECH = 600;

const SPEECH_GUIDE: Record<DecisionKind, string> = {
  speak: 'What you say to the town now, in your own voice: 1–3 sentences. Everyone hears it.',
  vote: 'One sentence you say aloud with your vote, in your own voice. Everyone hears it.',
  night: '',
  mafia_chat: 'What you tell your Mafia team in the private thread, in your own voice: one or two sentences.',
  last_words: 'Your last words to the town before you die: 1–3 sentences.',
  will: 'Your will, read out when you die: what the town should know (results, reads). Up to 5 sentences.',
};

const TASK: Record<DecisionKind, string> = {
  speak: 'Speak in the day discussion.',
  vote: 'Vote to lynch one player.',
  night: 'Choose your night action target.',
  mafia_chat: "Propose tonight's kill to your team.",
  last_words: 'Say your last words.',
  will: 'Write or update your will.',
};

export function taskOf(kind: DecisionKind): string {
  return TASK[kind];
}

/** The decision options offered to the model, by name; `null` id means skip / no lynch. */
export function optionsOf(request: DecisionRequest): { label: string; id: string | null }[] {
  if (request.kind !== 'vote' && request.kind !== 'night' && request.kind !== 'mafia_chat') return [];
  const options: { label: string; id: string | null }[] = request.targets.map((t) => ({ label: t.name, id: t.id }));
  if (request.allowSkip) options.push({ label: request.kind === 'vote' ? NO_LYNCH : SKIP, id: null });
  return options;
}

/**
 * Schema-guided reasoning (seed 001): the field order is the reasoning order, so the
 * model observes, analyses, updates beliefs and plans before it decides and speaks.
 * The decision is an enum of exactly the legal options for this request.
 */
export function decisionSchema(request: DecisionRequest): DecisionSchema {
  const others = request.view.seats.filter((s) => s.alive && s.id !== request.view.me.id).map((s) => s.name);
  const options = optionsOf(request).map((o) => o.label);
  // Building a zod schema (and its JSON Schema) costs far more than using one, and a game
  // asks the same shapes again and again: cache by everything the shape depends on.
  const key = `${request.kind}\u0000${options.join('\u0001')}\u0000${others.join('\u0001')}`;
  const cached = schemas.get(key);
  if (cached) return cached;
  if (schemas.size > 2000) schemas.clear();
  const built = buildSchema(request.kind, options, others);
  schemas.set(key, built);
  return built;
}

const schemas = new Map<string, DecisionSchema>();
const jsonSchemas = new WeakMap<DecisionSchema, JsonSchema>();

/** The JSON Schema both providers get for this request's answer. */
export function decisionJsonSchema(request: DecisionRequest): JsonSchema {
  const schema = decisionSchema(request);
  let json = jsonSchemas.get(schema);
  if (!json) {
    json = jsonSchemaOf(schema);
    jsonSchemas.set(schema, json);
  }
  return json;
}

function buildSchema(kind: DecisionKind, options: string[], others: string[]) {
  const belief = z.object({
    player: others.length > 0 ? z.enum(others as [string, ...string[]]) : z.string(),
    suspicion: z.number().min(0).max(1),
    trust: z.number().min(0).max(1),
    reason: z.string(),
  });
  return z.object({
    // Field guidance lives in the cached system prompt (FIELD_GUIDE); the schema stays lean.
    observations: z.string(),
    analysis: z.string(),
    beliefs: z.array(belief),
    strategy: z.string(),
    decision:
      options.length > 0
        ? z.enum(options as [string, ...string[]])
        : z.literal('none'),
    speech: kind === 'night' ? z.literal('') : z.string().describe(SPEECH_GUIDE[kind]),
    urgency: z.number().int().min(0).max(4),
  });
}

type DecisionSchema = ReturnType<typeof buildSchema>;
export type DecisionOutput = z.infer<DecisionSchema>;
