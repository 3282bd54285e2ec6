import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A loopback HTTP server that plays an LLM provider's wire protocol for the real SDKs.
 * Provider-neutral here: what a request says (`FakeRequest`) and what to answer (`FakeReply`);
 * `fake-openai.ts` and `fake-anthropic.ts` supply the wire formats (`Dialect`).
 */

export interface FakeToolCall {
  readonly id?: string;
  readonly name: string;
  readonly input?: unknown;
  /** Sent verbatim instead of `JSON.stringify(input)`, e.g. to send broken JSON. */
  readonly rawArguments?: string;
}

export interface FakeUsage {
  readonly input?: number;
  readonly output?: number;
  /** Prompt tokens read from the cache (OpenAI `cached_tokens`, Anthropic `cache_read_input_tokens`). */
  readonly cached?: number;
  /** Anthropic `cache_creation_input_tokens`. */
  readonly cacheWrite?: number;
}

export interface FakeMessage {
  readonly kind: 'message';
  readonly text?: string;
  readonly toolCalls?: readonly FakeToolCall[];
  /** The structured answer: JSON content (OpenAI) or a call of the output tool (Anthropic). */
  readonly structured?: unknown;
  readonly stop?: 'end_turn' | 'tool_use' | 'max_tokens' | 'refusal';
  readonly usage?: FakeUsage;
  /** Before the response starts. */
  readonly delayMs?: number;
  /** Between streamed events. */
  readonly chunkDelayMs?: number;
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
  /** The structured output asked for: the json_schema name (OpenAI) or the output tool (Anthropic). */
  readonly outputName: string | undefined;
  /** Its JSON Schema as sent: the json_schema schema (OpenAI, made strict) or the output tool's input_schema (Anthropic). */
  readonly outputSchema: Record<string, unknown> | undefined;
  readonly transcript: readonly FakeTurn[];
  /** The text of the last user turn ('' if none). */
  readonly lastUserText: string;
  /** The tool results at the end of the transcript: what the last round of tools returned. */
  readonly toolResults: readonly FakeTurn[];
}

export type FakeHandler = (request: FakeRequest) => FakeReply | Promise<FakeReply>;

export type RequestView = Omit<FakeRequest, 'index' | 'at' | 'path' | 'headers' | 'body'>;

/** A provider's wire format. */
export interface Dialect {
  readonly name: string;
  /** Path of the SDK's base URL on this server ('' or '/v1'). */
  readonly basePath: string;
  readonly endpoint: string;
  describe(body: Record<string, unknown>): RequestView;
  json(message: FakeMessage, request: FakeRequest): unknown;
  /** Server-sent events, each a complete `event:`/`data:` block ending in a blank line. */
  events(message: FakeMessage, request: FakeRequest): string[];
  errorBody(status: number, message: string): unknown;
  /** A stream event whose data is not JSON. */
  readonly malformedEvent: string;
}

export class FakeLlmServer {
  readonly requests: FakeRequest[] = [];
  readonly #queue: FakeReply[] = [];
  #handler: FakeHandler | undefined;
  readonly #server: Server;
  readonly #dialect: Dialect;
  #origin = '';

  private constructor(dialect: Dialect) {
    this.#dialect = dialect;
    this.#server = createServer((req, res) => {
      // A client that gave up (timeout, abort) leaves a destroyed response behind: not a test failure.
      res.on('error', () => {});
      this.#serve(req, res).catch(() => res.destroy());
    });
  }

  static async start(dialect: Dialect, script?: FakeHandler | readonly FakeReply[]): Promise<FakeLlmServer> {
    const fake = new FakeLlmServer(dialect);
    if (typeof script === 'function') fake.handle(script);
    else if (script !== undefined) fake.enqueue(...script);
    await new Promise<void>((resolve) => fake.#server.listen(0, '127.0.0.1', resolve));
    fake.#origin = `http://127.0.0.1:${(fake.#server.address() as AddressInfo).port}`;
    return fake;
  }

  /** What to give the SDK as `baseURL`. */
  get baseURL(): string {
    return this.#origin + this.#dialect.basePath;
  }

  /** Replies used in order, one per request, before the handler is asked. */
  enqueue(...replies: FakeReply[]): this {
    this.#queue.push(...replies);
    return this;
  }

  /** Answers every request once the queue is empty. */
  handle(handler: FakeHandler): this {
    this.#handler = handler;
    return this;
  }

  get last(): FakeRequest {
    const last = this.requests.at(-1);
    if (last === undefined) throw new Error(`the fake ${this.#dialect.name} server received no request`);
    return last;
  }

  /** Stops listening and drops every connection, hanging ones included. */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeAllConnections();
    await closed;
  }

  async #serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (req.method !== 'POST' || path !== this.#dialect.endpoint) {
      return sendJson(res, 404, this.#dialect.errorBody(404, `the fake ${this.#dialect.name} serves only POST ${this.#dialect.endpoint}`));
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return sendJson(res, 400, this.#dialect.errorBody(400, 'the request body is not JSON'));
    }
    const request: FakeRequest = {
      index: this.requests.length,
      at: performance.now(),
      path,
      headers: req.headers,
      body,
      ...this.#dialect.describe(body),
    };
    this.requests.push(request);
    const next = await this.#next(request);
    await this.#answer(next, request, res);
  }

  async #next(request: FakeRequest): Promise<FakeReply> {
    const queued = this.#queue.shift();
    if (queued !== undefined) return queued;
    if (this.#handler !== undefined) {
      try {
        return await this.#handler(request);
      } catch (error) {
        return reply.status(418, `the fake's handler threw: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    // 418: not retried by the SDKs, and loud in the test that forgot to script a reply.
    return reply.status(418, `no reply scripted for request #${request.index}`);
  }

  async #answer(next: FakeReply, request: FakeRequest, res: ServerResponse): Promise<void> {
    if (next.kind === 'hang') return;
    if (next.delayMs) await sleep(next.delayMs);
    if (res.destroyed) return;
    switch (next.kind) {
      case 'status':
        return sendJson(res, next.status, this.#dialect.errorBody(next.status, next.message ?? ''), next.headers);
      case 'malformed':
        if (request.stream) return sendEvents(res, [this.#dialect.malformedEvent], 0);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"choices": [ this is not json');
        return;
      case 'message':
        if (request.stream) return sendEvents(res, this.#dialect.events(next, request), next.chunkDelayMs ?? 0);
        return sendJson(res, 200, this.#dialect.json(next, request));
    }
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

async function sendEvents(res: ServerResponse, events: readonly string[], gapMs: number): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const event of events) {
    if (res.destroyed) return;
    res.write(event);
    if (gapMs > 0) await sleep(gapMs);
  }
  res.end();
}

/** Splits text into small pieces, as a model streams tokens (each keeps its trailing space). */
export function pieces(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** Splits a string into `n` roughly equal fragments (for streamed JSON arguments). */
export function fragments(text: string, n = 3): string[] {
  const size = Math.max(1, Math.ceil(text.length / n));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length > 0 ? out : [''];
}

export function sse(data: unknown, event?: string): string {
  return `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;
}

/** Text of a content that is a string or an array of `{ type: 'text', text }` parts. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) => (isRecord(part) && part['type'] === 'text' && typeof part['text'] === 'string' ? part['text'] : ''))
    .filter((text) => text !== '')
    .join('\n\n');
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseJsonOr(text: string, fallback: unknown): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
}

export function tail<T extends FakeTurn>(turns: readonly T[], role: FakeTurn['role']): T[] {
  const out: T[] = [];
  for (let i = turns.length - 1; i >= 0 && turns[i]!.role === role; i--) out.unshift(turns[i]!);
  return out;
}
