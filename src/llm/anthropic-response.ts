import type { Message, ToolUseBlock, Usage } from '@anthropic-ai/sdk/resources/messages';
import { parseJsonAnswer } from './json-answer.ts';
import type { LlmRequest, LlmResponse, StopReason, TokenUsage, ToolCall } from './types.ts';

/** A tool call the caller should run: not the output tool, whose input is the structured answer. */
export function isCallerTool(block: { type: string; name?: string }, request: LlmRequest): block is ToolUseBlock {
  return block.type === 'tool_use' && block.name !== request.output?.name;
}

export function toolCallOf(block: ToolUseBlock): ToolCall {
  return { id: block.id, name: block.name, input: block.input };
}

export function toLlmResponse(message: Message, request: LlmRequest, latencyMs: number): LlmResponse {
  const toolCalls = message.content.filter((block) => isCallerTool(block, request)).map(toolCallOf);
  const answer = message.content.find((block): block is ToolUseBlock => block.type === 'tool_use' && block.name === request.output?.name);
  const text = message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
  // A model that wrote its answer as JSON text instead of calling the output tool is still understood;
  // with `output_config.format` that text is the answer.
  const fromText = answer === undefined && toolCalls.length === 0 && request.output !== undefined ? parseJsonAnswer(text) : undefined;
  return {
    text,
    toolCalls,
    structured: answer?.input ?? fromText,
    // Thinking blocks are bound to this model and conversation: the turn goes back as it came.
    ...(message.content.some((block) => block.type === 'thinking' || block.type === 'redacted_thinking') && {
      verbatim: { provider: 'anthropic' as const, model: request.model, content: message.content },
    }),
    stopReason: stopReasonOf(message, toolCalls.length),
    usage: usageOf(message.usage),
    model: message.model || request.model,
    latencyMs,
  };
}

function stopReasonOf(message: Message, callerToolCalls: number): StopReason {
  switch (message.stop_reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'end_turn';
    case 'tool_use':
      // A call of the output tool alone is the model's final answer, not a request for tools.
      return callerToolCalls > 0 ? 'tool_use' : 'end_turn';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'max_tokens';
    case 'refusal':
      return 'refusal';
    default:
      return 'other';
  }
}

/** Anthropic counts cache reads and writes beside `input_tokens`; TokenUsage counts them in. */
function usageOf(usage: Usage): TokenUsage {
  const cached = usage.cache_read_input_tokens ?? 0;
  const written = usage.cache_creation_input_tokens ?? 0;
  return {
    inputTokens: usage.input_tokens + cached + written,
    outputTokens: usage.output_tokens,
    cachedInputTokens: cached,
    cacheWriteInputTokens: written,
    ...(usage.output_tokens_details && { reasoningOutputTokens: usage.output_tokens_details.thinking_tokens }),
    cacheWrite1hInputTokens: usage.cache_creation?.ephemeral_1h_input_tokens ?? 0,
  };
}
