import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import { parseJsonAnswer } from './json-answer.ts';
import type { LlmRequest, LlmResponse, StopReason, TokenUsage, ToolCall } from './types.ts';

/** What a finished completion says, streamed or not. */
export interface ChatOutcome {
  readonly content: string;
  readonly refusal: string | null;
  readonly toolCalls: readonly ToolCall[];
  readonly finishReason: string | null;
  readonly usage: CompletionUsage | null | undefined;
  readonly model: string;
}

export function fromChatCompletion(completion: ChatCompletion): ChatOutcome {
  const choice = completion.choices[0];
  const calls = (choice?.message.tool_calls ?? []).flatMap((call) =>
    call.type === 'function' ? [toolCallOf(call.id, call.function.name, call.function.arguments)] : [],
  );
  return {
    content: choice?.message.content ?? '',
    refusal: choice?.message.refusal ?? null,
    toolCalls: calls,
    finishReason: choice?.finish_reason ?? null,
    usage: completion.usage,
    model: completion.model,
  };
}

export function toLlmResponse(outcome: ChatOutcome, request: LlmRequest, latencyMs: number): LlmResponse {
  return {
    text: outcome.content,
    toolCalls: outcome.toolCalls,
    structured: request.output === undefined ? undefined : parseJsonAnswer(outcome.content),
    stopReason: stopReasonOf(outcome),
    usage: usageOf(outcome.usage),
    model: outcome.model || request.model,
    latencyMs,
  };
}

export function toolCallOf(id: string, name: string, rawArguments: string): ToolCall {
  // Unparsable arguments travel as the raw string: validation then tells the model what was wrong.
  const input = rawArguments.trim() === '' ? {} : (parseJson(rawArguments) ?? rawArguments);
  return { id, name, input };
}

/** The JSON in a text, or undefined when it is not JSON (the caller asks again). */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function stopReasonOf(outcome: ChatOutcome): StopReason {
  if (outcome.refusal !== null && outcome.refusal !== '') return 'refusal';
  switch (outcome.finishReason) {
    case 'stop':
      // Some compatible servers finish with `stop` even after tool calls.
      return outcome.toolCalls.length > 0 ? 'tool_use' : 'end_turn';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'length':
      return 'max_tokens';
    case 'content_filter':
      return 'refusal';
    default:
      return outcome.toolCalls.length > 0 ? 'tool_use' : 'other';
  }
}

/** `prompt_tokens` counts every prompt token; cache writes are reported (and billed) from gpt-5.6 on. */
function usageOf(usage: CompletionUsage | null | undefined): TokenUsage {
  const written = usage?.prompt_tokens_details?.cache_write_tokens;
  return {
    inputTokens: usage?.prompt_tokens ?? 0,
    outputTokens: usage?.completion_tokens ?? 0,
    cachedInputTokens: usage?.prompt_tokens_details?.cached_tokens ?? 0,
    ...(usage?.completion_tokens_details?.reasoning_tokens !== undefined && {
      reasoningOutputTokens: usage.completion_tokens_details.reasoning_tokens,
    }),
    ...(written !== undefined && { cacheWriteInputTokens: written }),
  };
}
