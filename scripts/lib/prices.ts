import type { CallRecord } from '../../src/llm/tool-loop.ts';

/** USD per million tokens: plain input, input read from the prompt cache, input written to it, output. */
export interface Price {
  readonly input: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly output: number;
}

/**
 * List prices of some models the arena is likely to meet (checked 2026-11-23; providers change them,
 * so check before trusting a dollar figure). A model not listed has no price: the arena says n/a.
 * OpenAI bills no premium for cache writes; Anthropic's 5-minute cache writes cost 125 % of input.
 */
const PRICES: Readonly<Record<string, Price>> = {
  'openai:gpt-4.1': { input: 2, cacheRead: 0.5, cacheWrite: 2, output: 8 },
  'openai:gpt-4.1-mini': { input: 0.4, cacheRead: 0.1, cacheWrite: 0.4, output: 1.6 },
  'openai:gpt-4.1-nano': { input: 0.1, cacheRead: 0.025, cacheWrite: 0.1, output: 0.4 },
  'openai:gpt-4o-mini': { input: 0.15, cacheRead: 0.075, cacheWrite: 0.15, output: 0.6 },
  'openai:gpt-5': { input: 1.25, cacheRead: 0.125, cacheWrite: 1.25, output: 10 },
  'openai:gpt-5-mini': { input: 0.25, cacheRead: 0.025, cacheWrite: 0.25, output: 2 },
  'anthropic:claude-sonnet-4-5': { input: 3, cacheRead: 0.3, cacheWrite: 3.75, output: 15 },
  'anthropic:claude-haiku-4-5': { input: 1, cacheRead: 0.1, cacheWrite: 1.25, output: 5 },
  'anthropic:claude-opus-4-5': { input: 5, cacheRead: 0.5, cacheWrite: 6.25, output: 25 },
};

/** The list price of `provider:model`, if known. */
export function priceOf(provider: string, model: string): Price | null {
  return PRICES[`${provider}:${model}`] ?? null;
}

/** What calls cost at a price: cached input at the cache-read rate, written input at the cache-write rate. */
export function dollarsOf(calls: readonly CallRecord[], price: Price): number {
  let dollars = 0;
  for (const { usage } of calls) {
    const written = usage.cacheWriteInputTokens ?? 0;
    const plain = usage.inputTokens - usage.cachedInputTokens - written;
    dollars +=
      (plain * price.input + usage.cachedInputTokens * price.cacheRead + written * price.cacheWrite + usage.outputTokens * price.output) /
      1e6;
  }
  return dollars;
}
