import type Anthropic from '@anthropic-ai/sdk';
import { err, ok, type Result } from '../result.ts';
import { toMessageParams } from './anthropic-request.ts';
import { isCallerTool, toLlmResponse, toolCallOf } from './anthropic-response.ts';
import { toLlmError, type CallingSdk } from './errors.ts';
import type { LlmError, LlmProvider, LlmRequest, LlmResponse, StreamDelta } from './types.ts';

export interface AnthropicProviderOptions {
  readonly apiKey: string;
  /** Default api.anthropic.com. */
  readonly baseURL?: string;
  /** Per attempt; the SDK retries timeouts, 429 (honouring retry-after) and 5xx itself. */
  readonly timeoutMs: number;
  readonly maxRetries?: number;
  /** The SDK's own logging (retries at `info`); default `warn`. */
  readonly logLevel?: 'off' | 'error' | 'warn' | 'info' | 'debug';
}

/** An `LlmProvider` on the official @anthropic-ai/sdk Messages API. */
export function createAnthropicProvider(options: AnthropicProviderOptions): LlmProvider {
  // The SDK is imported when a provider is made, not with this module: a bot that plays offline or
  // only on OpenAI never loads it (its hundreds of modules are a good part of a process's start-up).
  // It loads while the bot starts; a failure to load shows at the first call.
  const loaded: Promise<{ client: Anthropic; from: CallingSdk }> = import('@anthropic-ai/sdk').then(({ default: sdk }) => ({
    client: new sdk({
      apiKey: options.apiKey,
      baseURL: options.baseURL ?? null,
      timeout: options.timeoutMs,
      maxRetries: options.maxRetries ?? 2,
      logLevel: options.logLevel ?? 'warn',
      // Tracing stays off unless the bot sets up OpenTelemetry itself.
      openTelemetry: false,
    }),
    from: { name: 'anthropic', sdk } as const,
  }));
  loaded.catch(() => undefined);

  async function complete(request: LlmRequest): Promise<Result<LlmResponse, LlmError>> {
    const params = toMessageParams(request);
    if (!params.ok) return params;
    const { client, from } = await loaded;
    const started = performance.now();
    try {
      const message = await client.messages.create(
        { ...params.value, stream: false },
        request.signal ? { signal: request.signal } : undefined,
      );
      return ok(toLlmResponse(message, request, performance.now() - started));
    } catch (error) {
      return err(toLlmError(error, from, request.signal));
    }
  }

  async function* stream(request: LlmRequest): AsyncGenerator<StreamDelta> {
    const params = toMessageParams(request);
    if (!params.ok) {
      yield { type: 'error', error: params.error };
      return;
    }
    const { client, from } = await loaded;
    const started = performance.now();
    // The SDK's MessageStream parses the SSE events and assembles the message, tool inputs included.
    const events = client.messages.stream(params.value, request.signal ? { signal: request.signal } : undefined);
    let response: LlmResponse;
    try {
      for await (const event of events) {
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') {
          yield { type: 'text', text: event.delta.text };
        } else if (event.type === 'content_block_stop') {
          const block = events.currentMessage?.content[event.index];
          if (block !== undefined && isCallerTool(block, request)) yield { type: 'tool_call', call: toolCallOf(block) };
        }
      }
      // Also where a failure surfaces that the iteration missed.
      response = toLlmResponse(await events.finalMessage(), request, performance.now() - started);
    } catch (error) {
      yield { type: 'error', error: toLlmError(error, from, request.signal) };
      return;
    }
    yield { type: 'done', response };
  }

  return { name: 'anthropic', complete, stream };
}
