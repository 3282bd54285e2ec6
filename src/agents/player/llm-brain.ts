import type { FallbackCategory, Rng } from '../../game/index.ts';
import type { Result } from '../../result.ts';
import type { AsyncBrain, Brain, Decision, DecisionRequest, Fallback, SeatModel, SeatToolCall } from '../decision.ts';
import type { LlmError, LlmMessage, LlmRequest, LlmResponse } from '../../llm/types.ts';
import { cacheLifetimesFor } from './cache-lifetime.ts';
import { interpret } from './interpret.ts';
import { decisionJsonSchema, MAX_OUTPUT_TOKENS } from './output-schema.ts';
import type { PersonaPrompt } from './persona-prompt.ts';
import { sharedPrefix, stablePrefix, turnParts } from './prompt.ts';
import type { SeatToolContext } from './tools.ts';

/** One model turn with the seat's tools: the provider's tool loop, bound to a provider and a cost recorder. */
export type Think = (
  request: LlmRequest,
  context: SeatToolContext,
) => Promise<Result<{ response: LlmResponse; messages: readonly LlmMessage[] }, LlmError>>;

export interface LlmSeat {
  readonly persona: PersonaPrompt;
  readonly model: string;
  /** Its provider and the level that chose the model, told to the table when the provider no longer serves it. */
  readonly chosen?: Omit<SeatModel, 'id'>;
  readonly think: Think;
  /** The offline brain that decides when the model cannot. */
  readonly fallback: Brain;
  /** The budget gate, asked before every call. */
  readonly allow?: () => Promise<boolean> | boolean;
}

/** How a failed call is told at the table and in the director's cut (its own words go to the log only). */
function fallbackCategoryOf(error: LlmError): FallbackCategory {
  switch (error.kind) {
    case 'rate_limited':
      return 'rate_limited';
    case 'auth':
      return 'auth_failed';
    case 'model_unavailable':
      return 'model_unavailable';
    case 'budget':
      return 'budget_spent';
    case 'bad_response':
      return 'invalid_answer';
    case 'timeout':
    case 'aborted':
    case 'network':
      return 'timeout';
    case 'server':
    case 'bad_request':
      return 'provider_error';
  }
}

function fallBack(seat: LlmSeat, request: DecisionRequest, rng: Rng, category: FallbackCategory, detail: string): Decision {
  const fallback: Fallback =
    category === 'model_unavailable' && seat.chosen
      ? { category, detail, model: { ...seat.chosen, id: seat.model } }
      : { category, detail };
  return { ...seat.fallback(request, rng), fallback };
}

const TOOL_TEXT = 300;

/** The tool calls of one tool loop, each with its answer, cut short for the record. */
function toolCallsOf(messages: readonly LlmMessage[]): SeatToolCall[] {
  const answers = new Map<string, string>();
  for (const m of messages) if (m.role === 'tool') answers.set(m.toolCallId, m.content);
  return messages.flatMap((m) =>
    m.role === 'assistant' && m.toolCalls
      ? m.toolCalls.map((c) => ({
          name: c.name,
          input: JSON.stringify(c.input ?? {}).slice(0, TOOL_TEXT),
          output: (answers.get(c.id) ?? '').slice(0, TOOL_TEXT),
        }))
      : [],
  );
}

function userTurn(request: DecisionRequest): LlmMessage {
  const { text, breaks, cacheAt } = turnParts(request);
  return { role: 'user', content: text, cacheBreaks: breaks, cacheAt };
}

/** The first request of a decision: everything before the user turn is the same on every call of the game's seat. */
function seatRequest(seat: Pick<LlmSeat, 'persona' | 'model'>, request: DecisionRequest): LlmRequest {
  const { view } = request;
  return {
    model: seat.model,
    system: { shared: sharedPrefix(view), stable: stablePrefix(view, seat.persona) },
    messages: [userTurn(request)],
    output: { name: 'decision', description: 'Your answer for this turn.', schema: decisionJsonSchema(view) },
    maxTokens: MAX_OUTPUT_TOKENS[request.kind],
    // The schema's fields (observations, analysis, strategy) are the reasoning: no thinking before
    // them where the model can skip it, and the lowest effort (thinking is billed as output).
    thinking: false,
    effort: 'low',
    // One key for the whole table: every seat's calls share the tools, schema and shared block.
    cacheKey: `dramatis:${view.gameId}`,
    cacheLifetime: cacheLifetimesFor(view.rules),
    ...(request.signal && { signal: request.signal }),
    ...(request.deadline !== undefined && { deadline: request.deadline }),
  };
}

/**
 * A seat played by a model: schema-guided reasoning over a prompt built only from the seat's
 * view. An illegal or self-contradicting answer gets one re-ask with the error; a refusal, a
 * failed call (after the provider's retries within the deadline) or a second bad answer lets the
 * offline brain decide, and the decision says why.
 */
export function llmBrain(seat: LlmSeat): AsyncBrain {
  return async (request, rng) => {
    if (seat.allow && !(await seat.allow())) return fallBack(seat, request, rng, 'budget_spent', 'the daily token budget is spent');
    const context: SeatToolContext = { view: request.view, beliefs: request.beliefs, memory: request.memory ?? [] };
    const base = seatRequest(seat, request);
    let messages = base.messages;
    let problem = '';
    for (let attempt = 0; attempt < 2; attempt++) {
      const run = await seat.think({ ...base, messages }, context);
      if (!run.ok) return fallBack(seat, request, rng, fallbackCategoryOf(run.error), `${run.error.kind}: ${run.error.message}`);
      const { response } = run.value;
      // A refusal is not re-asked: the same prompt would be refused again, and time is short.
      if (response.stopReason === 'refusal') return fallBack(seat, request, rng, 'refused', response.text || 'the model refused');
      const read = interpret(request, response.structured);
      if (read.ok) {
        const toolCalls = toolCallsOf(run.value.messages);
        return toolCalls.length > 0 ? { ...read.value, toolCalls } : read.value;
      }
      problem = read.error;
      // The loop's messages are what the last call was sent; the answer follows as it came.
      const verbatim = response.verbatim && { verbatim: response.verbatim };
      const answer: LlmMessage[] =
        response.structured !== undefined && response.structured !== null
          ? [{ role: 'assistant', content: '', answer: response.structured, ...verbatim }]
          : response.text.trim() !== ''
            ? [{ role: 'assistant', content: response.text, ...verbatim }]
            : [];
      messages = [
        ...run.value.messages,
        ...answer,
        { role: 'user', content: `Your answer was not accepted: ${problem} Answer again, all fields.` },
      ];
    }
    return fallBack(seat, request, rng, 'invalid_answer', `invalid answer twice: ${problem}`);
  };
}
