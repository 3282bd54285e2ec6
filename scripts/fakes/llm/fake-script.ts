import type { IncomingHttpHeaders } from 'node:http';

/**
 * How a test scripts a fake provider server: the replies it can give (`reply.*` builders) and
 * the parsed request a handler sees. Provider-neutral: both fakes render the same replies.
 */

export interface FakeToolCall {
  readonly id?: string;
  readonly name: string;
  readonly input?: unknown;
  /** Sent verbatim instead of `JSON.stringify(input)`, e.g. to send broken JSON. */
  readonly rawArguments?: string;
}

/**
 * Usage a reply reports instead of the one the fake computes from the request; missing fields are
 * 10 input, 5 output, nothing cached.
 */
export interface FakeUsage {
  /** OpenAI `prompt_tokens` (every prompt token); Anthropic `input_tokens` (those neither read from nor written to the cache). */
  readonly input?: number;
  readonly output?: number;
  /** Prompt tokens read from the cache (OpenAI `cached_tokens`, Anthropic `cache_read_input_tokens`). */
  readonly cached?: number;
  /** Prompt tokens written to the cache (Anthropic `cache_creation_input_tokens`, OpenAI `cache_write_tokens`). */
  readonly cacheWrite?: number;
  /** The part of cacheWrite with a 1-hour lifetime (Anthropic `cache_creation.ephemeral_1h_input_tokens`). */
  readonly cacheWrite1h?: number;
}

export interface FakeMessage {
  readonly kind: 'message';
  readonly text?: string;
  readonly toolCalls?: readonly FakeToolCall[];
  /** The structured answer: JSON content (OpenAI) or a call of the output tool (Anthropic). */
  readonly structured?: unknown;
  readonly stop?: 'end_turn' | 'tool_use' | 'max_tokens' | 'refusal';
  /** Scripted usage; without it the fake reports what its prompt cache computes. */
  readonly usage?: FakeUsage;
  /** Before the response starts. */
  readonly delayMs?: number;
  /** Between streamed events. */
  readonly chunkDelayMs?: number;
  /** Streaming only: the connection drops after this many events, as when a proxy or the server dies mid-answer. */
  readonly cutAfterEvents?: number;
  /** Streaming only: nothing more comes after this many events; only the client's abort or the server's close ends it. */
  readonly stallAfterEvents?: number;
}

export type FakeReply =
  | FakeMessage
  | {
      readonly kind: 'status';
      readonly status: number;
      readonly message?: string;
      readonly headers?: Readonly<Record<string, string>>;
      readonly delayMs?: number;
    }
  /** Never answers: only the client's timeout or abort ends it. */
  | { readonly kind: 'hang' }
  /** A 200 whose body (or stream event) is not JSON. */
  | { readonly kind: 'malformed'; readonly delayMs?: number };

/** Concise reply builders: `fake.enqueue(reply.rateLimited(1), reply.text('Hello'))`. */
export const reply = {
  text: (text: string, extra: Partial<Omit<FakeMessage, 'kind' | 'text'>> = {}): FakeMessage => ({ kind: 'message', text, ...extra }),
  /** Tool calls, optionally after some text. */
  tools: (calls: readonly FakeToolCall[], extra: Partial<Omit<FakeMessage, 'kind' | 'toolCalls'>> = {}): FakeMessage => ({
    kind: 'message',
    toolCalls: calls,
    ...extra,
  }),
  tool: (name: string, input: unknown, extra: Partial<Omit<FakeMessage, 'kind' | 'toolCalls'>> = {}): FakeMessage => ({
    kind: 'message',
    toolCalls: [{ name, input }],
    ...extra,
  }),
  structured: (value: unknown, extra: Partial<Omit<FakeMessage, 'kind' | 'structured'>> = {}): FakeMessage => ({
    kind: 'message',
    structured: value,
    ...extra,
  }),
  status: (status: number, message = `fake status ${status}`, headers: Record<string, string> = {}): FakeReply => ({
    kind: 'status',
    status,
    message,
    headers,
  }),
  /** 429 with `retry-after` in (possibly fractional) seconds, which both SDKs honour. */
  rateLimited: (retryAfterSeconds = 1): FakeReply => ({
    kind: 'status',
    status: 429,
    message: 'rate limited',
    headers: { 'retry-after': String(retryAfterSeconds) },
  }),
  serverError: (status = 500): FakeReply => ({ kind: 'status', status, message: 'fake server error' }),
  hang: (): FakeReply => ({ kind: 'hang' }),
  malformed: (): FakeReply => ({ kind: 'malformed' }),
  /** The same reply after `ms` of latency. */
  slow: <R extends FakeReply>(ms: number, r: R): R => ({ ...r, delayMs: ms }),
};

export interface FakeTurn {
  readonly role: 'user' | 'assistant' | 'tool';
  readonly text: string;
  /** Assistant turns: the calls it made, arguments parsed. */
  readonly toolCalls?: readonly { readonly id: string; readonly name: string; readonly input: unknown }[];
  /** Tool turns. */
  readonly toolCallId?: string;
  /** Tool turns: Anthropic's `is_error`; undefined on OpenAI, whose wire has no such flag. */
  readonly isError?: boolean;
}

/** A received request, parsed for scripting and assertions. */
export interface FakeRequest {
  /** 0 for the first request this server received. */
  readonly index: number;
  /** `performance.now()` when the body had arrived. */
  readonly at: number;
  /** The fake's clock (its cache's) when the body had arrived: the game's time when the fake runs on it. */
  readonly arrivedAt: number;
  /** Drawn from the body, the model id left out: what the fake draws for this request (`fake-seed.ts`). */
  readonly seed: number;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The parsed JSON body, as the SDK sent it. */
  readonly body: Record<string, unknown>;
  readonly stream: boolean;
  readonly model: string;
  /** The whole system prompt text. */
  readonly system: string;
  /** Names of the tools offered (on Anthropic including the output tool). */
  readonly tools: readonly string[];
  /** The structured output asked for: the json_schema name (OpenAI), the output tool or `output_config.format` (Anthropic). */
  readonly outputName: string | undefined;
  /** Its JSON Schema as sent: the json_schema schema (OpenAI, made strict), the output tool's input_schema or the format's schema (Anthropic). */
  readonly outputSchema: Record<string, unknown> | undefined;
  readonly transcript: readonly FakeTurn[];
  /** The text of the last user turn ('' if none). */
  readonly lastUserText: string;
  /** The tool results at the end of the transcript: what the last round of tools returned. */
  readonly toolResults: readonly FakeTurn[];
}

export type FakeHandler = (request: FakeRequest) => FakeReply | Promise<FakeReply>;
