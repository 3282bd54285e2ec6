import type { Rng } from '../../game/index.ts';
import type { Result } from '../../result.ts';
import type { AsyncBrain, Brain, Decision, DecisionRequest } from '../decision.ts';
import type { LlmError, LlmMessage, LlmRequest, LlmResponse } from '../llm/types.ts';
import { interpret } from './interpret.ts';
import { decisionJsonSchema } from './output-schema.ts';
import type { PersonaPrompt } from './persona-prompt.ts';
import { stablePrefix, turnContext } from './prompt.ts';
import type { SeatToolContext } from './tools.ts';

/** One model turn with the seat's tools: the provider's tool loop, bound to a provider and a cost recorder. */
export type Think = (
  request: LlmRequest,
  context: SeatToolContext,
) => Promise<Result<{ response: LlmResponse; messages: readonly LlmMessage[] }, LlmError>>;

export interface LlmSeat {
  readonly persona: PersonaPrompt;
  readonly model: string;
  readonly think: Think;
  /** The offline brain that decides when the model cannot. */
  readonly fallback: Brain;
  /** The budget gate, asked before every call. */
  readonly allow?: () => Promise<boolean> | boolean;
}

const MAX_OUTPUT_TOKENS = 1500;

function fallBack(seat: LlmSeat, request: DecisionRequest, rng: Rng, reason: string): Decision {
  return { ...seat.fallback(request, rng), fallback: reason };
}

/**
 * A seat played by a model: schema-guided reasoning over a prompt built only from the
 * seat's view; an illegal or self-contradicting answer gets one re-ask with the error,
 * then the offline brain decides and the decision is marked as a fallback.
 */
export function llmBrain(seat: LlmSeat): AsyncBrain {
  return async (request, rng) => {
    if (seat.allow && !(await seat.allow())) return fallBack(seat, request, rng, 'budget: the daily token budget is spent');
    const context: SeatToolContext = { view: request.view, beliefs: request.beliefs, memory: request.memory ?? [] };
    const base: LlmRequest = {
      model: seat.model,
      system: { stable: stablePrefix(request.view, seat.persona) },
      messages: [{ role: 'user', content: turnContext(request) }],
      output: { name: 'decision', description: 'Your answer for this turn.', schema: decisionJsonSchema(request) },
      maxTokens: MAX_OUTPUT_TOKENS,
    };
    let messages = base.messages;
    let problem = '';
    for (let attempt = 0; attempt < 2; attempt++) {
      const run = await seat.think({ ...base, messages }, context);
      if (!run.ok) return fallBack(seat, request, rng, `${run.error.kind}: ${run.error.message}`);
      const read = interpret(request, run.value.response.structured);
      if (read.ok) return read.decision;
      problem = read.problem;
      // The loop's messages are what the last call was sent; the answer follows (as JSON when it came as structured output).
      const history = run.value.messages;
      const answer = run.value.response.text || JSON.stringify(run.value.response.structured ?? null);
      messages = [
        ...history,
        { role: 'assistant', content: answer },
        { role: 'user', content: `Your answer was not accepted: ${problem} Answer again, all fields.` },
      ];
    }
    return fallBack(seat, request, rng, `invalid answer twice: ${problem}`);
  };
}
