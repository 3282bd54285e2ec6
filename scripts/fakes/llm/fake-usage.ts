/**
 * Token figures of the wire fakes, provider-neutral: each dialect renders a `CallUsage` in its own
 * usage fields.
 */

/**
 * The fakes' token estimate, the same for both providers: a quarter of the characters, rounded up.
 * Real tokenizers differ, but one deterministic rule makes figures comparable across providers
 * and lets a test compute the exact numbers it expects.
 */
export function estimateTokens(text: string, ratio = 1): number {
  return tokensAt(text.length, ratio);
}

/** Tokens in the first `chars` characters, for a tokenizer counting `ratio` times the older ones. */
export function tokensAt(chars: number, ratio = 1): number {
  return Math.ceil((chars * ratio) / 4);
}

/** One call's usage. `input` counts every prompt token, as `TokenUsage.inputTokens` does. */
export interface CallUsage {
  /** Every prompt token: uncached + `cachedRead` + `cacheWrite`. */
  readonly input: number;
  /** Prompt tokens served from the cache. */
  readonly cachedRead: number;
  /** Prompt tokens written to the cache (Anthropic); 0 on OpenAI, whose cache writes are not billed apart. */
  readonly cacheWrite: number;
  /** The part of `cacheWrite` under a one-hour TTL (Anthropic `ttl: '1h'`). */
  readonly cacheWrite1h: number;
  readonly output: number;
  /** The part of `output` the model spent thinking, when its provider reports it. */
  readonly thinking?: number;
}

/** What a fake reported so far, summed over the calls it answered with a message. */
export interface UsageTotals {
  readonly calls: number;
  readonly input: number;
  readonly cachedRead: number;
  readonly cacheWrite: number;
  readonly output: number;
}

export const NO_USAGE: UsageTotals = { calls: 0, input: 0, cachedRead: 0, cacheWrite: 0, output: 0 };

export function addUsage(totals: UsageTotals, usage: CallUsage): UsageTotals {
  return {
    calls: totals.calls + 1,
    input: totals.input + usage.input,
    cachedRead: totals.cachedRead + usage.cachedRead,
    cacheWrite: totals.cacheWrite + usage.cacheWrite,
    output: totals.output + usage.output,
  };
}

/** Output tokens of what a reply sends back: its text, tool call arguments, structured JSON. */
export function outputTokens(sent: readonly string[], ratio = 1): number {
  return sent.reduce((sum, text) => sum + estimateTokens(text, ratio), 0);
}
