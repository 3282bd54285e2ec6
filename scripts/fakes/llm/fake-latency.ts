import type { FakeRequest } from './fake-script.ts';
import { unitOf } from './fake-seed.ts';

/** When a model's answer begins (its prompt cache entries are readable from then) and when it has all come. */
export interface ModelTiming {
  readonly firstTokenMs: number;
  readonly totalMs: number;
}

/** A fake model's timing for one request, given the output tokens of its answer. */
export type LatencyModel = (request: FakeRequest, outputTokens: number) => ModelTiming;

/** No time at all: what a fake without a clock does. */
export const instantly: LatencyModel = () => ({ firstTokenMs: 0, totalMs: 0 });

/**
 * A hosted model at these prompt sizes (3–5k tokens, mostly cached): the first token after
 * 0.8–3 s, then 40–90 tokens a second, so a 200-token answer takes 3–8 s. Drawn from the
 * request's seed, so the same request always takes the same time.
 */
export const hostedLatency: LatencyModel = (request, outputTokens) => {
  const firstTokenMs = Math.round(800 + unitOf(request.seed, 1) * 2200);
  const tokensPerSecond = 40 + unitOf(request.seed, 2) * 50;
  return { firstTokenMs, totalMs: firstTokenMs + Math.round((outputTokens / tokensPerSecond) * 1000) };
};
