import { z } from 'zod';
import type { PlayerView } from '../../game/index.ts';
import type { DecisionKind, DecisionRequest } from '../decision.ts';
import { jsonSchemaOf } from '../../llm/tool.ts';
import type { JsonSchema } from '../../llm/types.ts';

export const SKIP = '(nobody)';
const NO_LYNCH = '(no lynch)';

/** The characters each answer field may hold. */
export interface FieldLimits {
  readonly observations: number;
  readonly analysis: number;
  readonly reason: number;
  readonly strategy: number;
  readonly speech: number;
}

/**
 * Lengths the answer fields are asked to keep (characters): the most any turn allows. They are
 * told to the model in the schema's descriptions, not as `maxLength`: strict structured outputs
 * refuse length keywords on some providers. Longer text is cut, never refused, so one wordy field
 * costs no re-ask.
 */
export const FIELD_LIMITS: FieldLimits = {
  observations: 120,
  analysis: 320,
  reason: 50,
  strategy: 120,
  speech: 300,
};

/**
 * Turns that need less reasoning, told with the task (the schema stays the same for every turn, or
 * the providers' caches would break): a seat that already reasoned aloud today weighs only what
 * changed since (its vote, its second speech), last words need no plan for later turns, and the
 * first night has nothing to observe yet.
 */
const SETTLED: FieldLimits = { ...FIELD_LIMITS, observations: 80, analysis: 200, strategy: 80 };
const LAST_WORDS: FieldLimits = { ...FIELD_LIMITS, observations: 80, analysis: 200, strategy: 80 };
const FIRST_NIGHT: FieldLimits = { ...FIELD_LIMITS, observations: 40, analysis: 160, strategy: 80 };

/** Whether the seat has spoken in today's discussion: its reads of the day are formed and written. */
function spokeToday(request: DecisionRequest): boolean {
  const { events, me } = request.view;
  const start = events.findLastIndex((e) => e.type === 'phase_started' && e.payload.phase === 'day');
  return start >= 0 && events.slice(start).some((e) => e.type === 'speech' && e.payload.channel === 'town' && e.payload.playerId === me.id);
}

/** The first night: the game has only just begun, and nobody has a record to read yet. */
function firstNight(request: DecisionRequest): boolean {
  return (request.kind === 'night' || request.kind === 'mafia_chat') && request.view.day === 1;
}

/** The lengths this turn's fields may hold. */
export function limitsOf(request: DecisionRequest): FieldLimits {
  switch (request.kind) {
    case 'vote':
    case 'speak':
      return spokeToday(request) ? SETTLED : FIELD_LIMITS;
    case 'last_words':
      return LAST_WORDS;
    case 'night':
    case 'mafia_chat':
      return firstNight(request) ? FIRST_NIGHT : FIELD_LIMITS;
  }
}

const TOLD: readonly (keyof FieldLimits)[] = ['observations', 'analysis', 'strategy'];

/** The task's line naming the lengths this turn keeps, when they are below the schema's; null when they are not. */
export function lengthsLineOf(request: DecisionRequest): string | null {
  const limits = limitsOf(request);
  const shorter = TOLD.filter((field) => limits[field] < FIELD_LIMITS[field]);
  if (shorter.length === 0) return null;
  return `Lengths this turn: ${shorter.map((field) => `${field} ≤ ${limits[field]}`).join(', ')} characters.`;
}

/** What "beliefs" must hold this turn: the reads that changed, or none when no read can change. */
export function beliefsGuideOf(request: DecisionRequest): string {
  // Last words end the seat's game: no later turn of its own would use its reads.
  if (request.kind === 'last_words') return 'beliefs: leave it empty; your reads end with you.';
  if (firstNight(request)) return 'beliefs: leave it empty; the game has only just begun.';
  return 'beliefs: only the players whose read changed this turn; the others keep the reads above.';
}

/** Output tokens allowed per decision kind: the fields' limits with room for JSON and a full belief list. */
export const MAX_OUTPUT_TOKENS: Record<DecisionKind, number> = {
  night: 600,
  mafia_chat: 700,
  vote: 700,
  speak: 800,
  last_words: 500,
};

const TASK: Record<DecisionKind, string> = {
  speak: 'Speak in the day discussion.',
  vote: 'Vote to lynch one player.',
  night: 'Choose your night action target.',
  mafia_chat: "Propose tonight's kill to your team; your teammates follow your choice.",
  last_words: 'Say your last words.',
};

/** What "speech" must hold for each kind, told with the task (the schema stays the same for every kind). */
const SPEECH: Record<DecisionKind, string> = {
  speak: 'speech: what you say to the town now, in your own voice, 1–3 sentences. Everyone hears it.',
  vote: 'speech: one sentence you say aloud with your vote, in your own voice. Everyone hears it.',
  night: 'speech: leave it empty; nobody hears you at night.',
  mafia_chat: 'speech: what you tell your team in the private Mafia thread, one or two sentences.',
  last_words: 'speech: your last words to the town before you die, 1–3 sentences.',
};

export function taskOf(kind: DecisionKind): string {
  return TASK[kind];
}

export function speechGuideOf(kind: DecisionKind): string {
  return SPEECH[kind];
}

/** The decision options of this request, by label; `null` id means skip / no lynch. Speech kinds have none. */
export function optionsOf(request: DecisionRequest): { label: string; id: string | null }[] {
  if (request.kind !== 'vote' && request.kind !== 'night' && request.kind !== 'mafia_chat') return [];
  const options: { label: string; id: string | null }[] = request.targets.map((t) => ({ label: t.name, id: t.id }));
  if (request.allowSkip) options.push({ label: request.kind === 'vote' ? NO_LYNCH : SKIP, id: null });
  return options;
}

/**
 * Schema-guided reasoning (seed 001): the field order is the reasoning order, so the model
 * observes, analyses, updates beliefs and plans before it decides and speaks.
 *
 * One schema for every decision of a game, built from the seated names only, so the output tool
 * (Anthropic) or `response_format` (OpenAI) is byte-identical on every call of every seat and the
 * providers' prompt caches hold. Which names are legal right now is told with the task and
 * checked in code (`interpret`), not by a per-call enum.
 */
export function decisionSchema(view: Pick<PlayerView, 'seats'>): DecisionSchema {
  const names = view.seats.map((s) => s.name);
  const key = names.join('\u0001');
  const cached = schemas.get(key);
  if (cached) return cached;
  if (schemas.size > 2000) schemas.clear();
  const built = buildSchema(names);
  schemas.set(key, built);
  return built;
}

const schemas = new Map<string, DecisionSchema>();
const jsonSchemas = new WeakMap<DecisionSchema, JsonSchema>();

/** The JSON Schema both providers get: the same for every call of the game. */
export function decisionJsonSchema(view: Pick<PlayerView, 'seats'>): JsonSchema {
  const schema = decisionSchema(view);
  let json = jsonSchemas.get(schema);
  if (!json) {
    json = jsonSchemaOf(schema);
    jsonSchemas.set(schema, json);
  }
  return json;
}

const limit = (what: string, chars: number) => `${what} At most ${chars} characters.`;

function buildSchema(names: readonly string[]) {
  const players = z.enum(names.length > 0 ? (names as [string, ...string[]]) : ['nobody']);
  const belief = z.object({
    player: players,
    suspicion: z.number().min(0).max(1),
    trust: z.number().min(0).max(1),
    reason: z.string().describe(limit('Why, in one line.', FIELD_LIMITS.reason)),
  });
  return z.object({
    observations: z.string().describe(limit('The facts that matter since your last turn.', FIELD_LIMITS.observations)),
    analysis: z.string().describe(limit('What they suggest.', FIELD_LIMITS.analysis)),
    beliefs: z.array(belief).describe('Only players whose read changed this turn; the others keep their earlier read.'),
    strategy: z.string().describe(limit('Your plan for this turn.', FIELD_LIMITS.strategy)),
    decision: z.enum([...names, SKIP, NO_LYNCH]).describe('One of the options your task lists; (nobody) when it lists none.'),
    speech: z.string().describe(limit('As your task says; empty when it asks for none.', FIELD_LIMITS.speech)),
    urgency: z.number().int().min(0).max(4),
  });
}

type DecisionSchema = ReturnType<typeof buildSchema>;
