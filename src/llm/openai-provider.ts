import type OpenAI from 'openai';
import { err, ok, type Result } from '../result.ts';
import { toLlmError, type CallingSdk } from './errors.ts';
import { ChatChunkAssembler } from './openai-chunks.ts';
import { toChatParams, type TokenLimitField } from './openai-request.ts';
import { fromChatCompletion, toLlmResponse } from './openai-response.ts';
import type { LlmError, LlmProvider, LlmRequest, LlmResponse, StreamDelta } from './types.ts';

export interface OpenAiProviderOptions {
  /** Optional for local servers that ignore it (a placeholder is sent, the SDK insists on one). */
  readonly apiKey?: string;
  /** An OpenAI-compatible server (vLLM, Ollama, llama.cpp, LM Studio, OpenRouter …); default api.openai.com. */
  readonly baseURL?: string;
  /** Per attempt; the SDK retries timeouts, 429 (honouring retry-after) and 5xx itself. */
  readonly timeoutMs: number;
  readonly maxRetries?: number;
  /** Default: `max_completion_tokens` for api.openai.com, `max_tokens` for any other base URL. */
  readonly tokenLimitField?: TokenLimitField;
  /** The SDK's own logging (retries at `info`); default `warn`. */
  readonly logLevel?: 'off' | 'error' | 'warn' | 'info' | 'debug';
  /** Send `prompt_cache_key`; default only to api.openai.com (some compatible servers refuse unknown fields). */
  readonly promptCacheKey?: boolean;
  /** Send `reasoning_effort` to OpenAI's reasoning models (never to models their contract does not know); default true. */
  readonly reasoningEffort?: boolean;
}

/** An `LlmProvider` on the official openai SDK, through Chat Completions so any compatible server works. */
export function createOpenAiProvider(options: OpenAiProviderOptions): LlmProvider {
  // The SDK is imported when a provider is made, not with this module: a bot that plays offline or
  // only on Anthropic never loads it (its hundreds of modules are a good part of a process's start-up).
  // It loads while the bot starts; a failure to load shows at the first call.
  const loaded: Promise<{ client: OpenAI; from: CallingSdk }> = import('openai').then(({ default: sdk }) => ({
    client: new sdk({
      apiKey: options.apiKey ?? 'not-needed',
      baseURL: options.baseURL ?? null,
      timeout: options.timeoutMs,
      maxRetries: options.maxRetries ?? 2,
      logLevel: options.logLevel ?? 'warn',
    }),
    from: { name: 'openai', sdk } as const,
  }));
  loaded.catch(() => undefined);
  const paramOptions = {
    tokenLimitField: options.tokenLimitField ?? (options.baseURL ? 'max_tokens' : 'max_completion_tokens'),
    promptCacheKey: options.promptCacheKey ?? !options.baseURL,
    reasoningEffort: options.reasoningEffort ?? true,
  } as const;

  async function complete(request: LlmRequest): Promise<Result<LlmResponse, LlmError>> {
    const params = toChatParams(request, paramOptions);
    if (!params.ok) return params;
    const { client, from } = await loaded;
    const started = performance.now();
    try {
      const completion = await client.chat.completions.create(
        { ...params.value, stream: false },
        request.signal ? { signal: request.signal } : undefined,
      );
      return ok(toLlmResponse(fromChatCompletion(completion), request, performance.now() - started));
    } catch (error) {
      return err(toLlmError(error, from, request.signal));
    }
  }

  async function* stream(request: LlmRequest): AsyncGenerator<StreamDelta> {
    const params = toChatParams(request, paramOptions);
    if (!params.ok) {
      yield { type: 'error', error: params.error };
      return;
    }
    const { client, from } = await loaded;
    const started = performance.now();
    const assembler = new ChatChunkAssembler();
    try {
      const chunks = await client.chat.completions.create(
        { ...params.value, stream: true, stream_options: { include_usage: true } },
        request.signal ? { signal: request.signal } : undefined,
      );
      for await (const chunk of chunks) {
        const text = assembler.add(chunk);
        if (text !== '') yield { type: 'text', text };
      }
    } catch (error) {
      yield { type: 'error', error: toLlmError(error, from, request.signal) };
      return;
    }
    // An abort mid-stream ends the SDK's iteration quietly rather than throwing.
    if (request.signal?.aborted) {
      yield { type: 'error', error: toLlmError(null, from, request.signal) };
      return;
    }
    const outcome = assembler.outcome();
    for (const call of outcome.toolCalls) yield { type: 'tool_call', call };
    yield { type: 'done', response: toLlmResponse(outcome, request, performance.now() - started) };
  }

  return { name: 'openai', complete, stream };
}
