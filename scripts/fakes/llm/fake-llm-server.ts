import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Timers } from '../../../src/clock.ts';
import { PromptCache, tokenRatioOf, type PromptUsage } from './fake-cache.ts';
import { hostedLatency, instantly, type LatencyModel, type ModelTiming } from './fake-latency.ts';
import { reply, type FakeHandler, type FakeMessage, type FakeReply, type FakeRequest } from './fake-script.ts';
import { requestSeed } from './fake-seed.ts';
import { addUsage, NO_USAGE, outputTokens, type CallUsage, type UsageTotals } from './fake-usage.ts';
import type { Dialect } from './fake-wire.ts';
import { HeldAnswers } from './held-answers.ts';

export * from './fake-script.ts';
export type { CallUsage, UsageTotals } from './fake-usage.ts';

export interface FakeServerOptions {
  /** The clock of the prompt cache's TTLs, in milliseconds (default `Date.now`): tests move it to expire entries. */
  readonly now?: () => number;
  /**
   * A clock the model's time runs on (a game's manual clock): each answer is held until its
   * `latency` has passed on it, and the cache's TTLs run on it (it replaces `now`).
   */
  readonly clock?: Timers;
  /**
   * When each answer begins (its cache writes are readable from then) and ends. Default
   * `hostedLatency` on a `clock`, else none; without a clock only the beginning counts.
   */
  readonly latency?: LatencyModel;
}

/** A call's reported usage, with the index of the request it answered. */
export type FakeCallUsage = CallUsage & { readonly request: number };

/**
 * A loopback HTTP server that plays an LLM provider's wire protocol for the real SDKs.
 * What to answer is scripted with `fake-script.ts`; `fake-openai.ts` and `fake-anthropic.ts`
 * supply the wire formats (a `Dialect`).
 *
 * Each server has its own prompt cache (`fake-cache.ts`): every answered request goes through
 * it, and the usage reported is computed from the request's bytes unless the reply scripts one.
 * On a `clock` (a game's), the model takes its time on that clock (`fake-latency.ts`).
 */
export class FakeLlmServer {
  readonly requests: FakeRequest[] = [];
  /** The usage reported for each message reply, in order (scripted or computed). */
  readonly usages: FakeCallUsage[] = [];
  #totals: UsageTotals = NO_USAGE;
  #cache: PromptCache;
  readonly #now: () => number;
  readonly #latency: LatencyModel;
  readonly #held: HeldAnswers | undefined;
  readonly #queue: FakeReply[] = [];
  #handler: FakeHandler | undefined;
  readonly #server: Server;
  readonly #dialect: Dialect;
  #origin = '';

  private constructor(dialect: Dialect, options: FakeServerOptions) {
    this.#dialect = dialect;
    const clock = options.clock;
    this.#now = clock ? () => clock.now() : (options.now ?? Date.now);
    this.#cache = new PromptCache(this.#now);
    this.#latency = options.latency ?? (clock ? hostedLatency : instantly);
    this.#held = clock && new HeldAnswers(clock);
    this.#server = createServer((req, res) => {
      // A client that gave up (timeout, abort) leaves a destroyed response behind: not a test failure.
      res.on('error', () => {});
      this.#serve(req, res).catch(() => res.destroy());
    });
  }

  static async start(
    dialect: Dialect,
    script?: FakeHandler | readonly FakeReply[],
    options: FakeServerOptions = {},
  ): Promise<FakeLlmServer> {
    const fake = new FakeLlmServer(dialect, options);
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

  /**
   * As a new server on the same address: no script (queue nor handler), no requests or usage
   * recorded, an empty prompt cache. For tests that share one bot, and so its model's address.
   */
  reset(): this {
    this.#queue.length = 0;
    this.#handler = undefined;
    this.requests.length = 0;
    this.usages.length = 0;
    this.#totals = NO_USAGE;
    this.#cache = new PromptCache(this.#now);
    return this;
  }

  /** Answers held until their time on the `clock`. */
  get waitingOnClock(): number {
    return this.#held?.size ?? 0;
  }

  /** Calls `listener` whenever an answer starts or stops waiting on the clock; returns how to stop. */
  onWaitingChange(listener: () => void): () => void {
    return this.#held?.onChange(listener) ?? (() => undefined);
  }

  /** Resolves once exactly `count` answers wait on the clock (a test's "both requests are in"). */
  untilWaiting(count: number): Promise<void> {
    return new Promise((resolve) => {
      const check = (): void => {
        if (this.waitingOnClock !== count) return;
        stop();
        resolve();
      };
      const stop = this.onWaitingChange(check);
      check();
    });
  }

  /** The usage reported so far, summed: what a bench reads to measure cache hits. */
  get usageTotals(): UsageTotals {
    return this.#totals;
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
      sendJson(res, 404, this.#dialect.errorBody(404, `the fake ${this.#dialect.name} serves only POST ${this.#dialect.endpoint}`));
      return;
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      sendJson(res, 400, this.#dialect.errorBody(400, 'the request body is not JSON'));
      return;
    }
    const request: FakeRequest = {
      index: this.requests.length,
      at: performance.now(),
      arrivedAt: this.#now(),
      seed: requestSeed(body),
      path,
      headers: req.headers,
      body,
      ...this.#dialect.describe(body),
    };
    this.requests.push(request);
    const refused = this.#dialect.refuse(body);
    if (refused !== undefined) {
      const { message, param } = typeof refused === 'string' ? { message: refused, param: undefined } : refused;
      sendJson(res, 400, this.#dialect.errorBody(400, message, param));
      return;
    }
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
        sendJson(res, next.status, this.#dialect.errorBody(next.status, next.message ?? ''), next.headers);
        return;
      case 'malformed':
        if (request.stream) return sendEvents(res, [this.#dialect.malformedEvent], {});
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"choices": [ this is not json');
        return;
      case 'message': {
        const output = this.#output(next, request);
        // Thinking takes the model time too: the answer comes after all its output.
        const timing: ModelTiming = this.#latency(request, output.output);
        // The prompt is served as it arrives; what it writes is readable once its answer begins.
        const served = this.#cache.use(this.#dialect.prompt(request.body), timing.firstTokenMs);
        if (this.#held && !(await this.#held.hold(request.arrivedAt + timing.totalMs, request.seed, res))) return;
        // A caller that hung up as its answer came due is not billed.
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- the await above may flip it
        if (res.destroyed) return;
        const usage = this.#usage(next, request, served, output);
        if (request.stream) return sendEvents(res, this.#dialect.events(next, request, usage), next);
        sendJson(res, 200, this.#dialect.json(next, request, usage));
        return;
      }
    }
  }

  /** The prompt went through the cache even when the reply scripts its usage, so later calls see its writes. */
  #usage(next: FakeMessage, request: FakeRequest, served: PromptUsage, output: Pick<CallUsage, 'output' | 'thinking'>): CallUsage {
    const usage = next.usage !== undefined ? this.#dialect.scripted(next.usage) : { ...served, ...output };
    this.usages.push({ ...usage, request: request.index });
    this.#totals = addUsage(this.#totals, usage);
    return usage;
  }

  /** Output tokens from what the reply sends back, and what the model thought first where its dialect says. */
  #output(next: FakeMessage, request: FakeRequest): Pick<CallUsage, 'output' | 'thinking'> {
    const answer = outputTokens(this.#dialect.sent(next, request), tokenRatioOf(this.#dialect.provider, request.model));
    const thinking = this.#dialect.thinking?.(next, request, answer);
    return thinking === undefined ? { output: answer } : { output: answer + thinking, thinking };
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

/** A stream of events, paced (and cut or stalled) as the message's reply scripts. */
async function sendEvents(
  res: ServerResponse,
  events: readonly string[],
  pacing: Pick<FakeMessage, 'chunkDelayMs' | 'cutAfterEvents' | 'stallAfterEvents'>,
): Promise<void> {
  const gapMs = pacing.chunkDelayMs ?? 0;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const [i, event] of events.entries()) {
    if (res.destroyed || i === pacing.stallAfterEvents) return;
    if (i === pacing.cutAfterEvents) {
      // What was written reaches the client first; then the socket dies without the chunked terminator.
      await new Promise<void>((resolve) => res.write('', () => resolve()));
      res.destroy();
      return;
    }
    res.write(event);
    if (gapMs > 0) await sleep(gapMs);
  }
  res.end();
}
