import { createHash } from 'node:crypto';
import { modelInfo } from '../../../src/models.ts';
import { estimateTokens, tokensAt, type CallUsage } from './fake-usage.ts';

/**
 * The providers' prompt caches as they document them, for the wire fakes. Provider-neutral: a
 * dialect turns a request into ordered blocks of serialized text (and Anthropic's breakpoints);
 * hits come from those bytes only, so any change early in a request misses everything after it.
 * Token positions follow `estimateTokens`: the prefix ending at character c holds ceil(c × r / 4), r
 * the model's token ratio (`tokenRatioOf`).
 *
 * Time is the fake's clock (the game's in a bench): an entry is readable only once the response
 * that wrote it has begun (its first token), so requests sent together all miss and all write,
 * and it lives its TTL from then, each read renewing it.
 */

/** The shortest cached prefix of a model the table does not know (both providers' documented floor). */
const DEFAULT_MIN_CACHEABLE_TOKENS = 1024;
export const FIVE_MINUTES_MS = 5 * 60_000;
export const ONE_HOUR_MS = 60 * 60_000;
/** Anthropic also checks about 20 block boundaries before each breakpoint for an earlier write. */
const LOOKBACK_BLOCKS = 20;
/** OpenAI caches in steps of 128 tokens (512 characters under the estimate). */
const AUTOMATIC_STEP_TOKENS = 128;

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
  /** A prefix shorter than this is never cached: the model's own minimum (`cacheMinTokensOf`). */
  readonly minTokens: number;
  /** The model's tokens per older token (`tokenRatioOf`): where each prefix ends in tokens. */
  readonly tokenRatio: number;
}

/** The shortest prefix `provider` caches for `model`, from the model table. */
export function cacheMinTokensOf(provider: string, model: unknown): number {
  return (typeof model === 'string' ? modelInfo(provider, model)?.cacheMinTokens : undefined) ?? DEFAULT_MIN_CACHEABLE_TOKENS;
}

/** How many tokens `provider`'s `model` counts for one of the older tokenizers', from the model table. */
export function tokenRatioOf(provider: string, model: unknown): number {
  return (typeof model === 'string' ? modelInfo(provider, model)?.tokenRatio : undefined) ?? 1;
}

export type PromptUsage = Omit<CallUsage, 'output'>;

/** The request's text through one block: its size, and its key in the cache. */
interface Prefix {
  readonly index: number;
  readonly tokens: number;
  readonly key: string;
  /** Set when the block ends in a breakpoint. */
  readonly ttlMs: number | undefined;
}

type Breakpoint = Prefix & { readonly ttlMs: number };

interface Entry {
  /** When the response that wrote it began: no request that arrived before then reads it. */
  readableFrom: number;
  expiresAt: number;
  ttlMs: number;
}

/** One fake server's cache: written prefixes by digest, each alive until `ttl` after its last use. */
export class PromptCache {
  readonly #entries = new Map<string, Entry>();
  readonly #now: () => number;
  #uses = 0;

  constructor(now: () => number) {
    this.#now = now;
  }

  /**
   * Looks the request's prefixes up as it arrives, writes what the provider would write (readable
   * `firstTokenMs` later, when its response begins), and says how its prompt was served.
   */
  use(prompt: CachePrompt, firstTokenMs = 0): PromptUsage {
    const now = this.#now();
    // Expired entries can never be read again; dropping them now and then bounds the memory of long benches.
    if (++this.#uses % 256 === 0) for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(key);
    const write = (key: string, ttlMs: number): void => this.#write(key, now + firstTokenMs, ttlMs, now);
    return prompt.mode === 'automatic' ? this.#automatic(prompt, now, write) : this.#breakpoints(prompt, now, write);
  }

  #breakpoints(prompt: CachePrompt, now: number, write: (key: string, ttlMs: number) => void): PromptUsage {
    const hash = createHash('sha256');
    let chars = 0;
    const prefixes: Prefix[] = prompt.blocks.map((block, index) => {
      hash.update(block.text);
      chars += block.text.length;
      const key = `${prompt.scope}\n${hash.copy().digest('base64')}`;
      return { index, tokens: tokensAt(chars, prompt.tokenRatio), key, ttlMs: block.breakpointTtlMs };
    });
    const marks = prefixes.filter((prefix): prefix is Breakpoint => prefix.ttlMs !== undefined);

    // The longest cached prefix any breakpoint finds, at itself or by looking back.
    let read: Prefix | undefined;
    for (const mark of marks) {
      const lookback = prefixes.slice(Math.max(0, mark.index - LOOKBACK_BLOCKS), mark.index + 1);
      const found = lookback.findLast((prefix) => this.#live(prefix.key, now));
      if (found !== undefined && (read === undefined || found.index > read.index)) read = found;
    }
    // A read refreshes what it used: the prefix read and this request's breakpoints inside it.
    const readIndex = read?.index ?? -1;
    if (read !== undefined) for (const prefix of [read, ...marks.filter((mark) => mark.index < readIndex)]) this.#touch(prefix.key, now);

    // Each new breakpoint past the read writes from the previous write (or the read) to itself.
    let written = read?.tokens ?? 0;
    let cacheWrite = 0;
    let cacheWrite1h = 0;
    for (const mark of marks) {
      if (mark.index <= readIndex || mark.tokens < prompt.minTokens) continue;
      const tokens = mark.tokens - written;
      cacheWrite += tokens;
      if (mark.ttlMs >= ONE_HOUR_MS) cacheWrite1h += tokens;
      written = mark.tokens;
      write(mark.key, mark.ttlMs);
    }
    return { input: tokensAt(chars, prompt.tokenRatio), cachedRead: read?.tokens ?? 0, cacheWrite, cacheWrite1h };
  }

  #automatic(prompt: CachePrompt, now: number, write: (key: string, ttlMs: number) => void): PromptUsage {
    const text = prompt.blocks.map((block) => block.text).join('');
    // Steps of 128 of the model's tokens, in characters.
    const step = Math.round((AUTOMATIC_STEP_TOKENS * 4) / prompt.tokenRatio);
    const hash = createHash('sha256');
    let cachedRead = 0;
    let matching = true;
    for (let end = step, steps = 1; end <= text.length; end += step, steps++) {
      hash.update(text.slice(end - step, end));
      const tokens = steps * AUTOMATIC_STEP_TOKENS;
      if (tokens < prompt.minTokens) continue;
      const key = `${prompt.scope}\n${hash.copy().digest('base64')}`;
      // The longest common prefix: steps count only while every earlier one matched too.
      matching = matching && this.#live(key, now);
      if (matching) {
        cachedRead = tokens;
        this.#touch(key, now);
      } else write(key, FIVE_MINUTES_MS);
    }
    return { input: estimateTokens(text, prompt.tokenRatio), cachedRead, cacheWrite: 0, cacheWrite1h: 0 };
  }

  #live(key: string, now: number): boolean {
    const entry = this.#entries.get(key);
    return entry !== undefined && entry.readableFrom <= now && entry.expiresAt > now;
  }

  #touch(key: string, now: number): void {
    const entry = this.#entries.get(key);
    if (entry !== undefined) entry.expiresAt = Math.max(entry.expiresAt, now + entry.ttlMs);
  }

  /**
   * Requests in flight together may write the same prefix: it is readable from the first of their
   * responses and lives to the last of their TTLs, whatever order they arrived in.
   */
  #write(key: string, readableFrom: number, ttlMs: number, now: number): void {
    const entry = this.#entries.get(key);
    const expiresAt = readableFrom + ttlMs;
    if (entry === undefined || entry.expiresAt <= now) {
      this.#entries.set(key, { readableFrom, expiresAt, ttlMs });
      return;
    }
    entry.readableFrom = Math.min(entry.readableFrom, readableFrom);
    entry.expiresAt = Math.max(entry.expiresAt, expiresAt);
    entry.ttlMs = Math.max(entry.ttlMs, ttlMs);
  }
}
