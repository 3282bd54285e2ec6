import { pause } from '../../src/llm/retrying-provider.ts';
import type { LlmError, LlmProvider, LlmRequest, LlmResponse } from '../../src/llm/types.ts';
import type { Timers } from '../../src/clock.ts';
import { err, ok, type Result } from '../../src/result.ts';
import { playingAnswer, playingRecap, type AnswerOptions } from '../fakes/llm/playing-answer.ts';

/** What one call (one attempt) to the simulated model meets. */
export type CallOutcome =
  | { readonly kind: 'answer'; readonly afterMs: number }
  | { readonly kind: 'hang' }
  | { readonly kind: 'rate_limited'; readonly afterMs: number; readonly retryAfterMs: number }
  | { readonly kind: 'server_error'; readonly afterMs: number };

export interface SimulatedModelOptions extends AnswerOptions {
  /** The clock its latency runs on: a manual one makes a 30 s answer take no real time. */
  readonly clock: Timers;
  readonly behaviour: (call: { readonly index: number; readonly request: LlmRequest }) => CallOutcome;
}

export interface SimulatedModel extends LlmProvider {
  /** Calls (attempts) received so far. */
  readonly calls: number;
}

const tokens = (text: string): number => Math.ceil(text.length / 4);

/**
 * A model inside the process, for the realtime bench and the deadline property test: it answers
 * like the wire fakes' playing model, but after a latency on the given clock, or never, or with a
 * 429 or a 5xx, as `behaviour` says. It honours the request's abort signal as the SDKs do.
 */
export function simulatedModel(options: SimulatedModelOptions): SimulatedModel {
  let calls = 0;
  async function complete(request: LlmRequest): Promise<Result<LlmResponse, LlmError>> {
    const index = calls++;
    const outcome = options.behaviour({ index, request });
    const aborted = err<LlmError>({ kind: 'aborted', message: 'the call was aborted' });
    if (outcome.kind === 'hang') {
      await new Promise<void>((resolve) => {
        if (!request.signal || request.signal.aborted) {
          resolve();
          return;
        }
        request.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      return aborted;
    }
    if (!(await pause(options.clock, outcome.afterMs, request.signal))) return aborted;
    if (outcome.kind === 'rate_limited')
      return err({ kind: 'rate_limited', message: 'simulated 429', status: 429, retryAfterMs: outcome.retryAfterMs });
    if (outcome.kind === 'server_error') return err({ kind: 'server', message: 'simulated 500', status: 500 });
    const prompt = [
      request.system.shared ?? '',
      request.system.stable,
      request.system.dynamic ?? '',
      ...request.messages.map((m) => m.content),
    ].join('\n');
    const task = [...request.messages].reverse().find((m) => m.role === 'user' && m.content.includes('# Your task'))?.content ?? '';
    const structured = request.output ? playingAnswer(task, request.output.schema, index, options) : undefined;
    const text = structured ? JSON.stringify(structured) : playingRecap(index, 'terse', request.system.stable);
    return ok({
      text: structured ? '' : text,
      toolCalls: [],
      structured,
      stopReason: 'end_turn',
      usage: {
        inputTokens: tokens(prompt) + tokens(JSON.stringify(request.output?.schema ?? '')),
        outputTokens: tokens(text),
        cachedInputTokens: 0,
      },
      model: request.model,
      latencyMs: outcome.afterMs,
    });
  }
  return {
    name: 'openai',
    complete,
    // Seats never stream.
    // eslint-disable-next-line @typescript-eslint/require-await -- the AsyncIterable is an async generator; its one error awaits nothing
    stream: async function* () {
      yield { type: 'error', error: { kind: 'bad_request', message: 'the simulated model does not stream' } };
    },
    get calls() {
      return calls;
    },
  };
}

/** A seeded uniform in [0, 1) (mulberry32), so a bench run is the same run every time. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Real models as operators meet them: latency log-normal with a median of `p50Ms` and a 95th
 * percentile of `p95Ms`, a share of calls that never answer, and a share of 429s.
 */
export function realisticBehaviour(
  random: () => number,
  shape: { p50Ms: number; p95Ms: number; hangShare: number; rateLimitShare: number; retryAfterMs: number },
): SimulatedModelOptions['behaviour'] {
  const sigma = Math.log(shape.p95Ms / shape.p50Ms) / 1.6449;
  return () => {
    const roll = random();
    if (roll < shape.hangShare) return { kind: 'hang' };
    if (roll < shape.hangShare + shape.rateLimitShare) return { kind: 'rate_limited', afterMs: 200, retryAfterMs: shape.retryAfterMs };
    // Box–Muller: a standard normal from two uniforms.
    const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    return { kind: 'answer', afterMs: Math.round(shape.p50Ms * Math.exp(sigma * normal)) };
  };
}
