import { createHash } from 'node:crypto';
import { estimateTokens, type CallUsage } from './fake-usage.ts';

/**
 * The providers' prompt caches as they document them, for the wire fakes. Provider-neutral: a
 * dialect turns a request into ordered blocks of serialized text (and Anthropic's breakpoints);
 * hits come from those bytes only, so any change early in a request misses everything after it.
 * Token positions follow `estimateTokens`: the prefix ending at character c holds ceil(c / 4).
 */

/** A prefix shorter than this is never cached (both providers' documented minimum). */
export const MIN_CACHEABLE_TOKENS = 1024;
export const FIVE_MINUTES_MS = 5 * 60_000;
export const ONE_HOUR_MS = 60 * 60_000;
/** Anthropic also checks about 20 block boundaries before each breakpoint for an earlier write. */
export const LOOKBACK_BLOCKS = 20;
/** OpenAI caches in steps of 128 tokens (512 characters under the estimate). */
export const AUTOMATIC_STEP_TOKENS = 128;

export interface PromptBlock {
  /** The block as the model reads it, serialized deterministically, cache markers left out. */
  readonly text: string;
  /** Set when a cache breakpoint ends this block (Anthropic `cache_control`): how long its write lives. */
  readonly breakpointTtlMs?: number;
}

export interface CachePrompt {
  /**
   * `breakpoints` (Anthropic): prefixes are written only where a block ends in a breakpoint, and
   * read at a breakpoint or up to `LOOKBACK_BLOCKS` boundaries before one.
   * `automatic` (OpenAI): every prefix is written, and the longest one seen before is read, in
   * `AUTOMATIC_STEP_TOKENS` steps.
   */
  readonly mode: 'breakpoints' | 'automatic';
  /** Prefixes are shared only within a scope (the model; on OpenAI also the prompt_cache_key). */
  readonly scope: string;
  readonly blocks: readonly PromptBlock[];
}

export type PromptUsage = Omit<CallUsage, 'output'>;

interface Entry {
  expiresAt: number;
  readonly ttlMs: number;
}

/** One fake server's cache: written prefixes by digest, each alive until `ttl` after its last use. */
export class PromptCache {
  readonly #entries = new Map<string, Entry>();
  readonly #now: () => number;
  #uses = 0;

  constructor(now: () => number) {
    this.#now = now;
  }

  /** Looks the request's prefixes up, writes what the provider would write, and says how its prompt was served. */
  use(prompt: CachePrompt): PromptUsage {
    const now = this.#now();
    // Expired entries can never be read again; dropping them now and then bounds the memory of long benches.
    if (++this.#uses % 256 === 0) for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(key);
    return prompt.mode === 'automatic' ? this.#automatic(prompt, now) : this.#breakpoints(prompt, now);
  }

  #breakpoints(prompt: CachePrompt, now: number): PromptUsage {
    const hash = createHash('sha256');
    const ends: number[] = [];
    const keys: string[] = [];
    let chars = 0;
    for (const block of prompt.blocks) {
      hash.update(block.text);
      chars += block.text.length;
      ends.push(chars);
      keys.push(`${prompt.scope}\n${hash.copy().digest('base64')}`);
    }
    const tokensThrough = (i: number): number => (i < 0 ? 0 : Math.ceil(ends[i]! / 4));
    const marks = prompt.blocks.flatMap((block, i) => (block.breakpointTtlMs === undefined ? [] : [i]));

    // The longest cached prefix any breakpoint finds, at itself or by looking back.
    let read = -1;
    for (const mark of marks) {
      for (let i = mark; i >= Math.max(0, mark - LOOKBACK_BLOCKS); i--) {
        if (this.#live(keys[i]!, now)) {
          read = Math.max(read, i);
          break;
        }
      }
    }
    // A read refreshes what it used: the prefix read and this request's breakpoints inside it.
    for (const i of [read, ...marks.filter((mark) => mark < read)]) if (i >= 0) this.#touch(keys[i]!, now);

    // Each new breakpoint past the read writes from the previous write (or the read) to itself.
    let written = tokensThrough(read);
    let cacheWrite = 0;
    let cacheWrite1h = 0;
    for (const mark of marks) {
      if (mark <= read || tokensThrough(mark) < MIN_CACHEABLE_TOKENS) continue;
      const ttlMs = prompt.blocks[mark]!.breakpointTtlMs ?? FIVE_MINUTES_MS;
      const tokens = tokensThrough(mark) - written;
      cacheWrite += tokens;
      if (ttlMs >= ONE_HOUR_MS) cacheWrite1h += tokens;
      written = tokensThrough(mark);
      this.#entries.set(keys[mark]!, { expiresAt: now + ttlMs, ttlMs });
    }
    return { input: Math.ceil(chars / 4), cachedRead: tokensThrough(read), cacheWrite, cacheWrite1h };
  }

  #automatic(prompt: CachePrompt, now: number): PromptUsage {
    const text = prompt.blocks.map((block) => block.text).join('');
    const step = AUTOMATIC_STEP_TOKENS * 4;
    const hash = createHash('sha256');
    let cachedRead = 0;
    let matching = true;
    for (let end = step; end <= text.length; end += step) {
      hash.update(text.slice(end - step, end));
      const tokens = end / 4;
      if (tokens < MIN_CACHEABLE_TOKENS) continue;
      const key = `${prompt.scope}\n${hash.copy().digest('base64')}`;
      // The longest common prefix: steps count only while every earlier one matched too.
      matching = matching && this.#live(key, now);
      if (matching) cachedRead = tokens;
      this.#entries.set(key, { expiresAt: now + FIVE_MINUTES_MS, ttlMs: FIVE_MINUTES_MS });
    }
    return { input: estimateTokens(text), cachedRead, cacheWrite: 0, cacheWrite1h: 0 };
  }

  #live(key: string, now: number): boolean {
    const entry = this.#entries.get(key);
    return entry !== undefined && entry.expiresAt > now;
  }

  #touch(key: string, now: number): void {
    const entry = this.#entries.get(key);
    if (entry !== undefined) entry.expiresAt = now + entry.ttlMs;
  }
}
