import type { Result } from '../result.ts';

/** A JSON Schema object as `z.toJSONSchema` produces it. */
export type JsonSchema = Record<string, unknown>;

export interface ToolCall {
  readonly id: string;
  readonly name: string;
  /** Parsed JSON arguments as the model sent them (not yet validated). */
  readonly input: unknown;
}

export type LlmMessage =
  | {
      readonly role: 'user';
      readonly content: string;
      /**
       * Offsets in `content` where it may be cut into blocks, and the one (`cacheAt`) whose block ends
       * in a cache breakpoint: for Anthropic, whose cache reads only up to block boundaries. Others ignore them.
       */
      readonly cacheBreaks?: readonly number[];
      readonly cacheAt?: number;
    }
  | {
      readonly role: 'assistant';
      readonly content: string;
      readonly toolCalls?: readonly ToolCall[];
      /**
       * A structured answer the model gave earlier (to the request's `output`), sent back as it came:
       * JSON content on OpenAI, a call of the output tool (answered by the next message) on Anthropic.
       */
      readonly answer?: unknown;
      /** The turn as its provider sent it, when it must go back unchanged (the response's `verbatim`). */
      readonly verbatim?: VerbatimTurn;
    }
  | {
      readonly role: 'tool';
      readonly toolCallId: string;
      readonly toolName: string;
      readonly content: string;
      readonly isError: boolean;
    };

/**
 * An assistant turn as the provider sent it, for providers that need it back byte for byte to go on:
 * Anthropic's content blocks with its thinking blocks and their signatures, which are bound to the
 * model and the conversation. Opaque to everything but that provider's request builder.
 */
export interface VerbatimTurn {
  readonly provider: ProviderName;
  readonly model: string;
  readonly content: readonly unknown[];
}

export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
}

export interface LlmRequest {
  readonly model: string;
  /**
   * The system prompt in up to three parts, most widely shared first, so providers can cache the
   * prefix: `shared` is identical for every caller of a group (every seat of a game), `stable`
   * across one caller's calls (a seat's persona and role), `dynamic` may change every call.
   */
  readonly system: { readonly shared?: string; readonly stable: string; readonly dynamic?: string };
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
  /**
   * How much work the model puts into its answer where it takes an effort (Anthropic
   * `output_config.effort`, OpenAI `reasoning_effort`); default the model's own.
   */
  readonly effort?: 'low' | 'medium' | 'high';
  /**
   * `false`: no thinking before the answer, where the model allows it to be turned off (the answer's
   * own fields are the reasoning); default the model's own. `maxTokens` is the answer's room either way.
   */
  readonly thinking?: false;
  readonly temperature?: number;
  readonly signal?: AbortSignal;
  /**
   * Epoch ms (on the caller's clock) by which an answer is of use: a retrying provider starts no
   * attempt or wait it cannot finish before it.
   */
  readonly deadline?: number;
  /** Groups requests that share a long prefix (OpenAI's `prompt_cache_key`), e.g. one per seat. */
  readonly cacheKey?: string;
  /** How long each cached part should live, where the provider lets the caller choose (Anthropic). Default 5 minutes. */
  readonly cacheLifetime?: CacheLifetimes;
}

/** Anthropic keeps a cached prefix 5 minutes after its last use, or 1 hour for a dearer write (2× input instead of 1.25×). */
export type CacheLifetime = '5m' | '1h';

/** A lifetime per cached part of a request; a continued conversation's last message always gets 5 minutes. */
export interface CacheLifetimes {
  /** The shared system block, and the tools and output schema before it. */
  readonly shared?: CacheLifetime;
  /** The stable system block. */
  readonly stable?: CacheLifetime;
  /** The breakpoint a user message asks for (`cacheAt`). */
  readonly turn?: CacheLifetime;
}

export interface TokenUsage {
  /** Every prompt token of the call, whether served from the cache or not (providers differ; this is normalised). */
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** The part of inputTokens served from the provider's prompt cache. */
  readonly cachedInputTokens: number;
  /** The part of inputTokens written to the cache (billed above the plain rate by Anthropic and by OpenAI from gpt-5.6 on). */
  readonly cacheWriteInputTokens?: number;
  /** The part of outputTokens the model spent thinking (billed as output, never shown), when the provider says. */
  readonly reasoningOutputTokens?: number;
  /** The part of cacheWriteInputTokens written with a 1-hour lifetime (Anthropic `ttl: '1h'`), dearer than 5 minutes. */
  readonly cacheWrite1hInputTokens?: number;
}

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'refusal' | 'other';

export interface LlmResponse {
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
  /** The parsed JSON of the structured output, when the request asked for one and the model gave it. */
  readonly structured: unknown;
  /** Set when the next call must send this turn back as it came (see `VerbatimTurn`). */
  readonly verbatim?: VerbatimTurn;
  readonly stopReason: StopReason;
  readonly usage: TokenUsage;
  readonly model: string;
  readonly latencyMs: number;
}

/**
 * `model_unavailable`: the provider does not serve the model asked for (unknown, or retired): a
 * setting must change, so it is never retried. `budget`: refused before anything was sent, the
 * server's daily token budget being spent (never from a provider).
 */
export type LlmErrorKind =
  'rate_limited' | 'server' | 'timeout' | 'aborted' | 'auth' | 'model_unavailable' | 'bad_request' | 'bad_response' | 'network' | 'budget';

/** A provider call that failed after the SDK's own retries. */
export interface LlmError {
  readonly kind: LlmErrorKind;
  readonly message: string;
  readonly status?: number;
  /** How long the server asked to wait before trying again (429 / 503 `retry-after`). */
  readonly retryAfterMs?: number;
  /** The server's own word on retrying (`x-should-retry`), when it said one. */
  readonly shouldRetry?: boolean;
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
