import type { EffortLevel } from '../models.ts';
import { thinkingRoom, type RequestContract } from './request-contract.ts';
import type { LlmRequest } from './types.ts';

/** What a model's contract decides in a Chat Completions request (`request-contract.ts`). */
export interface ChatSettings {
  /** `reasoning_effort` to send, if any. */
  readonly effort: EffortLevel | undefined;
  /** Whether function tools may be sent at all. */
  readonly tools: boolean;
  /** Whether `temperature` may be sent. */
  readonly sampling: boolean;
  /** Output tokens to add to the limit for reasoning, which counts toward it. */
  readonly reasoningRoom: number;
}

/**
 * - GPT-5.4 and later refuse function tools on Chat Completions unless `reasoning_effort` is `none`,
 *   even when none is sent (their default is `medium`): a request with tools says `none`, and a
 *   model that has no `none` (GPT-6.1 Sol, GPT-6 Astra) gets no tools.
 * - `thinking: false` sends the lowest effort the model has; otherwise the effort asked for, if it
 *   takes it, else nothing (the model's default).
 * - `temperature` only where the model takes sampling, or reasons at `none`.
 * A model the contract does not know (a self-hosted one) gets none of this: today's request.
 */
export function chatSettings(request: LlmRequest, contract: RequestContract): ChatSettings {
  const { efforts } = contract;
  const tools = !(contract.toolsOnlyWithoutReasoning && !efforts.includes('none'));
  const sendsTools = tools && (request.tools?.length ?? 0) > 0;
  const effort = efforts.length === 0 ? undefined : effortOf(request, contract, sendsTools);
  const reasoning = effort ?? contract.defaultEffort;
  return {
    effort,
    tools,
    sampling: !contract.noSampling || reasoning === 'none',
    reasoningRoom: efforts.length === 0 ? 0 : thinkingRoom(reasoning),
  };
}

function effortOf(request: LlmRequest, contract: RequestContract, tools: boolean): EffortLevel | undefined {
  if (tools && contract.toolsOnlyWithoutReasoning) return 'none';
  if (request.thinking === false) return contract.efforts[0];
  return request.effort !== undefined && contract.efforts.includes(request.effort) ? request.effort : undefined;
}
