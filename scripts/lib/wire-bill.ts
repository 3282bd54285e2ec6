import type { ModelPrice } from '../../src/models.ts';
import type { CallUsage } from '../fakes/llm/fake-usage.ts';

/** Prompt and output tokens as a provider bills them: each kind at its own rate. */
export interface BilledTokens {
  /** Input neither read from the cache nor written to it. */
  readonly plain: number;
  readonly cacheRead: number;
  /** Written with a 5-minute lifetime. */
  readonly cacheWrite: number;
  readonly cacheWrite1h: number;
  readonly output: number;
}

/** What a fake reported for its calls, by the rate each token is billed at. */
export function billedTokens(usages: readonly CallUsage[]): BilledTokens {
  let plain = 0;
  let cacheRead = 0;
  let cacheWrite = 0;
  let cacheWrite1h = 0;
  let output = 0;
  for (const usage of usages) {
    plain += usage.input - usage.cachedRead - usage.cacheWrite;
    cacheRead += usage.cachedRead;
    cacheWrite += usage.cacheWrite - usage.cacheWrite1h;
    cacheWrite1h += usage.cacheWrite1h;
    output += usage.output;
  }
  return { plain, cacheRead, cacheWrite, cacheWrite1h, output };
}

/** USD at a model's list price (per million tokens). */
export function dollarsAt(tokens: BilledTokens, price: ModelPrice): number {
  return (
    (tokens.plain * price.input +
      tokens.cacheRead * price.cacheRead +
      tokens.cacheWrite * price.cacheWrite +
      tokens.cacheWrite1h * price.cacheWrite1h +
      tokens.output * price.output) /
    1e6
  );
}
