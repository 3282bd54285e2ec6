import type { Result } from '../../result.ts';

/** A JSON Schema object as `z.toJSONSchema` produces it. */
export type JsonSchema = Record<string, unknown>;

export interface ToolCall {
  readonly id: string;
  readonly name: string;
  /** Parsed JSON arguments as the model sent them (not yet validated). */
  readonly input: unknown;
}

export type LlmMessage =
  | { readonly role: 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string; readonly toolCalls?: readonly ToolCall[] }
  | {
      readonly role: 'tool';
      readonly toolCallId: string;
      readonly toolName: string;
      readonly content: string;
      readonly isError: boolean;
    };

export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
}

export interface LlmRequest {
  readonly model: string;
  /**
   * The system prompt in two parts: `stable` is identical across a seat's calls (rules,
   * persona, role) so providers can cache it; `dynamic` (optional) follows it.
   */
  readonly system: { readonly stable: string; readonly dynamic?: string };
  readonly messages: readonly LlmMessage[];
  readonly tools?: readonly ToolSpec[];
  /**
   * `none` keeps the tools in the request (the history may hold tool calls, and the tools are
   * part of the provider's cached prefix) but the model must answer without calling one.
   * Default `auto`.
   */
  readonly toolChoice?: 'auto' | 'none';
  /** Structured final output: the model's last answer must be JSON matching this schema. */
  readonly output?: { readonly name: string; readonly description?: string; readonly schema: JsonSchema };
  readonly maxTokens?: number;
  readonly temperature?: number;
  readonly signal?: AbortSignal;
}

export interface TokenUsage {
  /** Every prompt token of the call, whether served from the cache or not (providers differ; this is normalised). */
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** The part of inputTokens served from the provider's prompt cache. */
  readonly cachedInputTokens: number;
}

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'refusal' | 'other';

export interface LlmResponse {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  /** The parsed JSON of the structured output, when the request asked for one and the model gave it. */
  readonly structured: unknown;
  readonly stopReason: StopReason;
  readonly usage: TokenUsage;
  readonly model: string;
  readonly latencyMs: number;
}

/** `budget`: refused before anything was sent, the server's daily token budget being spent (never from a provider). */
export type LlmErrorKind = 'rate_limited' | 'server' | 'timeout' | 'aborted' | 'auth' | 'bad_request' | 'bad_response' | 'network' | 'budget';

/** A provider call that failed after the SDK's own retries. */
export interface LlmError {
  readonly kind: LlmErrorKind;
  readonly message: string;
  readonly status?: number;
}

export type StreamDelta =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'tool_call'; readonly call: ToolCall }
  | { readonly type: 'done'; readonly response: LlmResponse }
  | { readonly type: 'error'; readonly error: LlmError };

export type ProviderName = 'openai' | 'anthropic';

export interface LlmProvider {
  readonly name: ProviderName;
  complete(request: LlmRequest): Promise<Result<LlmResponse, LlmError>>;
  /** Deltas in order; ends with exactly one `done` or `error`. */
  stream(request: LlmRequest): AsyncIterable<StreamDelta>;
}
