import type { ChatCompletionCreateParamsBase, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { err, ok, type Result } from '../result.ts';
import { chatSettings } from './openai-contract.ts';
import { requestContract, type RequestContract } from './request-contract.ts';
import { strictJsonSchema } from './strict-schema.ts';
import type { LlmError, LlmMessage, LlmRequest } from './types.ts';

/** Which field carries the token limit: OpenAI's newer models refuse `max_tokens`, many local servers only know it. */
export type TokenLimitField = 'max_completion_tokens' | 'max_tokens';

type ChatParams = Omit<ChatCompletionCreateParamsBase, 'stream' | 'stream_options'>;

export interface ChatParamOptions {
  readonly tokenLimitField: TokenLimitField;
  /** Send `prompt_cache_key` (OpenAI's own API knows it; some compatible servers refuse unknown fields). */
  readonly promptCacheKey: boolean;
  /**
   * Send `reasoning_effort` to the models whose contract has one (OpenAI's own reasoning models, which a
   * compatible server serving them must take too); default true. Other models never get it.
   */
  readonly reasoningEffort?: boolean;
}

/**
 * The Chat Completions body for a request; a schema that cannot be made strict is a bad request.
 * Tools and `response_format` are part of OpenAI's cached prefix: callers keep them identical
 * across calls that should share a cache. The model's contract adds `reasoning_effort`, room for
 * reasoning in the limit, and drops what it would refuse (`openai-contract.ts`).
 */
export function toChatParams(
  request: LlmRequest,
  options: ChatParamOptions,
  contract: RequestContract = requestContract('openai', request.model),
): Result<ChatParams, LlmError> {
  const settings = chatSettings(request, options.reasoningEffort === false ? { ...contract, efforts: [] } : contract);
  const params: ChatParams = { model: request.model, messages: chatMessages(request) };
  if (options.promptCacheKey && request.cacheKey !== undefined) params.prompt_cache_key = request.cacheKey;
  if (settings.effort !== undefined) params.reasoning_effort = settings.effort;
  if (settings.tools && request.tools !== undefined && request.tools.length > 0) {
    params.tools = request.tools.map((tool): ChatCompletionTool => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
    }));
    params.tool_choice = request.toolChoice ?? 'auto';
  }
  if (request.output !== undefined) {
    const schema = strictJsonSchema(request.output.schema);
    if (!schema.ok) return err({ kind: 'bad_request', message: `output schema ${request.output.name}: ${schema.error}` });
    params.response_format = {
      type: 'json_schema',
      json_schema: {
        name: request.output.name,
        schema: schema.value,
        strict: true,
        ...(request.output.description !== undefined && { description: request.output.description }),
      },
    };
  }
  if (request.maxTokens !== undefined) params[options.tokenLimitField] = request.maxTokens + settings.reasoningRoom;
  if (request.temperature !== undefined && settings.sampling) params.temperature = request.temperature;
  return ok(params);
}

function chatMessages(request: LlmRequest): ChatCompletionMessageParam[] {
  // One system message: several, or one not first, break some local servers' chat templates.
  // The stable part comes first so the provider's automatic prefix cache can reuse it.
  const { shared, stable, dynamic } = request.system;
  const system = [shared, stable, dynamic].filter((part) => part !== undefined && part !== '');
  return [{ role: 'system', content: system.join('\n\n') }, ...request.messages.map(chatMessage)];
}

function chatMessage(message: LlmMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: message.content };
    case 'assistant':
      // A structured answer came as the message's JSON content; it goes back the same way.
      if (message.answer !== undefined) return { role: 'assistant', content: JSON.stringify(message.answer) };
      if (message.toolCalls === undefined || message.toolCalls.length === 0) {
        return { role: 'assistant', content: message.content };
      }
      return {
        role: 'assistant',
        content: message.content === '' ? null : message.content,
        tool_calls: message.toolCalls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: JSON.stringify(call.input ?? {}) },
        })),
      };
    case 'tool':
      // Chat Completions has no error flag on tool results: say it in the text the model reads.
      return {
        role: 'tool',
        tool_call_id: message.toolCallId,
        content: message.isError ? `Error: ${message.content}` : message.content,
      };
  }
}
