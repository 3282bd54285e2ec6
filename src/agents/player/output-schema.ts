import { z } from 'zod';
import type { PlayerView } from '../../game/index.ts';
import type { DecisionKind, DecisionRequest } from '../decision.ts';
import { jsonSchemaOf } from '../../llm/tool.ts';
import type { JsonSchema } from '../../llm/types.ts';
import { FIELD_LIMITS, firstNight } from './turn-lengths.ts';
import { BeliefSchema, RoleGuessSchema } from '../beliefs.ts';

export const SKIP = '(nobody)';
const NO_LYNCH = '(no lynch)';

/** Output tokens allowed per decision kind: the fields' limits with room for JSON and a full belief list. */
export const MAX_OUTPUT_TOKENS: Record<DecisionKind, number> = {
  night: 600,
  mafia_chat: 700,
  vote: 700,
  speak: 800,
  defense: 800,
  last_words: 700,
};

const TASK: Record<DecisionKind, string> = {
  speak: 'Speak in the day discussion.',
  defense: 'You stand accused: speak in your own defense. The town votes among the accused next.',
  vote: 'Vote to lynch one player.',
  night: 'Choose your night action target.',
  mafia_chat: "Propose tonight's kill to your team; your teammates follow your choice.",
  last_words: 'Say your last words.',
};

/** What "speech" must hold for each kind, told with the task (the schema stays the same for every kind). */
const SPEECH: Record<DecisionKind, string> = {
  speak: 'speech: what you say to the town now, in your own voice, 1–3 sentences. Everyone hears it.',
  defense: 'speech: your defense, in your own voice, 2–4 sentences: answer who accused you and on what grounds. Everyone hears it.',
  vote: 'speech: one sentence you say aloud with your vote, in your own voice. Everyone hears it.',
  night: 'speech: leave it empty; nobody hears you at night.',
  mafia_chat: 'speech: what you tell your team in the private Mafia thread, one or two sentences.',
  last_words: 'speech: your last words to the town before you die, 1–3 sentences.',
};

const NOMINATE =
  ' This is a trial day: in "decision" name one player to nominate for trial, or to second a nomination someone else made, or (nobody). Nominate only someone you would vote to lynch.';

/** The task of this request: a speech in a trial day's discussion may also nominate. */
export function taskOf(request: Pick<DecisionRequest, 'kind' | 'targets'>): string {
  return request.kind === 'speak' && request.targets.length > 0 ? TASK.speak + NOMINATE : TASK[request.kind];
}

export function speechGuideOf(kind: DecisionKind): string {
  return SPEECH[kind];
}

/** What "beliefs" must hold this turn: the reads that changed, or none when no read can change. */
export function beliefsGuideOf(request: DecisionRequest): string {
  // Last words end the seat's game: no later turn of its own would use its reads.
  if (request.kind === 'last_words') return 'beliefs: leave it empty; your reads end with you.';
  if (firstNight(request)) return 'beliefs: leave it empty; the game has only just begun.';
  return 'beliefs: only the players whose read changed this turn; the others keep the reads above.';
}

/**
 * The decision options of this request, by label; `null` id means skip / no lynch. Speech kinds
 * have none, except a speech in a trial day's discussion: whom it nominates or seconds, or nobody.
 */
export function optionsOf(request: DecisionRequest): { label: string; id: string | null }[] {
  if (request.kind === 'speak' && request.targets.length > 0)
    return [...request.targets.map((t) => ({ label: t.name, id: t.id })), { label: SKIP, id: null }];
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
  if (schemas.size >= SCHEMAS_KEPT) schemas.clear();
  const built = buildSchema(names);
  schemas.set(key, built);
  return built;
}

/** Rosters whose schema is kept; past it the cache starts over (one roster per running game). */
const SCHEMAS_KEPT = 2000;
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
  // A read as beliefs.ts defines it, named by player; the reason's length is cut in code, and a
  // role guess every read carries (null for none: strict outputs have no optional fields), so an
  // answer written before guesses existed still parses.
  const { suspicion, trust } = BeliefSchema.shape;
  const belief = z.object({
    player: players,
    suspicion,
    trust,
    reason: z.string().describe(limit('Why, in one line.', FIELD_LIMITS.reason)),
    roleGuess: RoleGuessSchema.nullable().default(null),
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
