/**
 * Every model Dramatis knows by name, in one table: what it costs, the shortest prompt prefix its
 * provider caches, and when the provider deprecates or retires it. The defaults, the bench, the
 * cost ledger and docs/operators.md (Models) all read this table; nothing else holds a price.
 *
 * Providers change ids, prices and retirement dates every few months: each row says when it was
 * checked and where. A model not in the table still plays (a self-hosted server, a new release);
 * it just has no price.
 */

export type ModelProvider = 'openai' | 'anthropic';

/** USD per million tokens. */
export interface ModelPrice {
  /** Input read neither from nor into the cache. */
  readonly input: number;
  readonly output: number;
  /** Input read from the prompt cache. */
  readonly cacheRead: number;
  /**
   * Input written to the cache at the lifetime Dramatis asks for: Anthropic's 5 minutes, OpenAI's
   * default 30 minutes (billed above input from gpt-5.6 on; earlier models bill it as plain input).
   */
  readonly cacheWrite: number;
  /** Input written with a 1-hour lifetime (Anthropic, 2× input); the `cacheWrite` price where there is none. */
  readonly cacheWrite1h: number;
}

export interface ModelInfo {
  readonly provider: ModelProvider;
  /** The id sent to the API. */
  readonly id: string;
  readonly price: ModelPrice;
  /** The shortest prefix the provider caches, in tokens; a shorter one is never read from the cache. */
  readonly cacheMinTokens: number;
  /**
   * Tokens its tokenizer counts for text the older ones count as 1 (about four characters a token);
   * default 1. Claude 4.7 and later count about 30 % more. Only the wire fakes read it: real counts
   * come from the provider.
   */
  readonly tokenRatio?: number;
  /** When the provider marked it deprecated (ISO date), if it has. */
  readonly deprecated?: string;
  /** When requests to it start failing (ISO date), if announced. */
  readonly retires?: string;
  /** When and where the row was last checked. */
  readonly checked: string;
  /** How its requests must be shaped, where that differs from the request of old (absent: see `ModelRequestTraits`). */
  readonly request?: ModelRequestTraits;
}

/** An effort level as the providers name them (Anthropic `output_config.effort`, OpenAI `reasoning_effort`). */
export type EffortLevel = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';

/**
 * What a model's API accepts and refuses, as its provider documents it. Every field is optional and
 * its absence means the request Dramatis sent before models had contracts; `requestContract` in
 * `src/llm/request-contract.ts` fills what a row leaves out from the model's family, so a model the
 * table lacks (a self-hosted one) keeps that request.
 */
export interface ModelRequestTraits {
  /** The effort levels it takes (in the request field of its provider), lowest first. Default none: no effort is sent. */
  readonly efforts?: readonly EffortLevel[];
  /** The effort it reasons at when a request names none. Default none: it does not reason unasked. */
  readonly defaultEffort?: EffortLevel;
  /**
   * Anthropic: the `thinking` type that turns up-front thinking off (`between_tools` on Sonnet 5.5,
   * `disabled` on Haiku 5.5). Default none: it cannot be turned off, or is off already.
   */
  readonly thinkingOff?: 'between_tools' | 'disabled';
  /** Anthropic: structured answers through `output_config.format` rather than a forced output tool. Default false. */
  readonly outputFormat?: boolean;
  /** Anthropic: `tool_choice` `any` or `tool` is refused (400). Default false. */
  readonly noForcedTool?: boolean;
  /** `temperature`, `top_p` and `top_k` are refused (Claude 5.x; OpenAI reasoning models unless effort is `none`). Default false. */
  readonly noSampling?: boolean;
  /** OpenAI Chat Completions: function tools are refused unless `reasoning_effort` is `none` (GPT-5.4 and later). Default false. */
  readonly toolsOnlyWithoutReasoning?: boolean;
}

// Anthropic's per-model pages give prices, the cache minimum and the lifecycle; the deprecations
// page the dates. OpenAI caches prefixes of 1,024 tokens or more on every model
// (developers.openai.com/api/docs/guides/prompt-caching); its deprecations page gives the dates.
export const MODELS: readonly ModelInfo[] = [
  {
    provider: 'anthropic',
    id: 'claude-sonnet-5-5',
    // Cache reads at 5 % of input, not the usual 10 %.
    price: { input: 2, output: 10, cacheRead: 0.1, cacheWrite: 2.5, cacheWrite1h: 4 },
    cacheMinTokens: 512,
    // Its tokenizer counts about 30 % more tokens than Haiku 4.5's for the same text (its overview page).
    tokenRatio: 1.3,
    checked: '2026-11-26, platform.claude.com/docs/id/models/sonnet-5-5/overview (fetched 2026-10-08)',
  },
  {
    provider: 'anthropic',
    id: 'claude-haiku-5-5',
    // Prompts up to 100,000 tokens; longer ones cost 5× (a game's prompt is about 3,000).
    price: { input: 0.1, output: 0.5, cacheRead: 0.01, cacheWrite: 0.125, cacheWrite1h: 0.2 },
    cacheMinTokens: 512,
    // Its tokenizer counts about 30 % more tokens than Haiku 4.5's for the same text (its overview page).
    tokenRatio: 1.3,
    checked: '2026-11-26, platform.claude.com/docs/en/models/haiku-5-5/overview (released 2026-10-07)',
  },
  {
    provider: 'anthropic',
    id: 'claude-opus-5-5',
    price: { input: 4, output: 20, cacheRead: 0.2, cacheWrite: 5, cacheWrite1h: 8 },
    cacheMinTokens: 512,
    // Its tokenizer counts about 30 % more tokens than Haiku 4.5's for the same text (its overview page).
    tokenRatio: 1.3,
    checked: '2026-11-26, platform.claude.com/docs/id/models/opus-5-5/overview (fetched 2026-09-24)',
  },
  {
    provider: 'anthropic',
    id: 'claude-sonnet-4-5',
    price: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, cacheWrite1h: 6 },
    cacheMinTokens: 1024,
    deprecated: '2026-09-30',
    retires: '2026-11-30',
    checked:
      '2026-11-26, platform.claude.com/docs/ja/models/sonnet-4-5/overview.md (deprecated, retires 2026-11-30; replacement Sonnet 5.5)',
  },
  {
    provider: 'anthropic',
    id: 'claude-haiku-4-5',
    price: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25, cacheWrite1h: 2 },
    cacheMinTokens: 4096,
    checked: '2026-11-26, platform.claude.com/docs/pt-BR/models/haiku-4-5/overview.md (legacy, no retirement date)',
  },
  {
    provider: 'anthropic',
    id: 'claude-opus-4-5',
    price: { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25, cacheWrite1h: 10 },
    cacheMinTokens: 4096,
    checked: '2026-11-26, platform.claude.com/docs/pt-BR/models/opus-4-5/overview.md (legacy, no retirement date)',
  },
  {
    provider: 'openai',
    id: 'gpt-6-luna',
    price: { input: 0.1, output: 0.5, cacheRead: 0.01, cacheWrite: 0.125, cacheWrite1h: 0.125 },
    cacheMinTokens: 1024,
    checked: '2026-11-26, developers.openai.com/api/docs/models/gpt-6-luna (released 2026-09-22)',
  },
  {
    provider: 'openai',
    id: 'gpt-6.1-terra',
    price: { input: 1, output: 5, cacheRead: 0.05, cacheWrite: 1.25, cacheWrite1h: 1.25 },
    cacheMinTokens: 1024,
    checked: '2026-11-26, developers.openai.com/api/docs/models/gpt-6.1-terra (released 2026-10-26)',
  },
  {
    provider: 'openai',
    id: 'gpt-6.1-sol',
    price: { input: 2, output: 10, cacheRead: 0.1, cacheWrite: 2.5, cacheWrite1h: 2.5 },
    cacheMinTokens: 1024,
    checked: '2026-11-26, developers.openai.com/api/docs/models/gpt-6.1-sol (released 2026-09-29)',
  },
  {
    provider: 'openai',
    id: 'gpt-5',
    price: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 1.25, cacheWrite1h: 1.25 },
    cacheMinTokens: 1024,
    deprecated: '2026-06-11',
    retires: '2026-12-11',
    checked: '2026-11-26, developers.openai.com/api/docs/deprecations (replacement gpt-6.1-sol)',
  },
  {
    provider: 'openai',
    id: 'gpt-5-mini',
    price: { input: 0.25, output: 2, cacheRead: 0.025, cacheWrite: 0.25, cacheWrite1h: 0.25 },
    cacheMinTokens: 1024,
    deprecated: '2026-06-11',
    retires: '2026-12-11',
    checked: '2026-11-26, developers.openai.com/api/docs/deprecations (replacement gpt-6.1-terra)',
  },
  {
    provider: 'openai',
    id: 'gpt-4.1',
    price: { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 2, cacheWrite1h: 2 },
    cacheMinTokens: 1024,
    deprecated: '2026-10-14',
    retires: '2027-01-14',
    checked: '2026-11-26, developers.openai.com/api/docs/deprecations (replacement gpt-6-luna)',
  },
  {
    provider: 'openai',
    id: 'gpt-4.1-mini',
    price: { input: 0.4, output: 1.6, cacheRead: 0.1, cacheWrite: 0.4, cacheWrite1h: 0.4 },
    cacheMinTokens: 1024,
    deprecated: '2026-10-14',
    retires: '2027-01-14',
    checked: '2026-11-26, developers.openai.com/api/docs/deprecations (replacement gpt-6-luna)',
  },
  {
    provider: 'openai',
    id: 'gpt-4.1-nano',
    price: { input: 0.1, output: 0.4, cacheRead: 0.025, cacheWrite: 0.1, cacheWrite1h: 0.1 },
    cacheMinTokens: 1024,
    retires: '2026-10-23',
    checked: '2026-11-26, developers.openai.com/api/docs/deprecations (shut down 2026-10-23; replacement gpt-5.6-luna)',
  },
  {
    provider: 'openai',
    id: 'gpt-4o-mini',
    price: { input: 0.15, output: 0.6, cacheRead: 0.075, cacheWrite: 0.15, cacheWrite1h: 0.15 },
    cacheMinTokens: 1024,
    deprecated: '2026-10-14',
    retires: '2027-01-14',
    checked: '2026-11-26, developers.openai.com/api/docs/deprecations (replacement gpt-6-luna)',
  },
];

/**
 * The model each provider plays when neither the persona nor the game names one: current models,
 * neither deprecated. Sonnet-class for Anthropic, since good play matters more than the cheapest
 * call; for OpenAI its named replacement for the old default (gpt-4.1-mini), at a quarter of its price.
 */
export const DEFAULT_MODELS: Readonly<Record<ModelProvider, string>> = {
  openai: 'gpt-6-luna',
  anthropic: 'claude-sonnet-5-5',
};

/** The row of `provider`'s model `id`, if the table has it. */
export function modelInfo(provider: string, id: string): ModelInfo | null {
  return MODELS.find((m) => m.provider === provider && m.id === id) ?? null;
}

/** Where a model stands on `today` (an ISO date): a retirement date is a deprecation, a past one a retirement. */
export type ModelStatus =
  | { readonly kind: 'active' }
  | { readonly kind: 'deprecated'; readonly retires: string | null }
  | { readonly kind: 'retired'; readonly since: string };

export function modelStatus(info: ModelInfo, today: string): ModelStatus {
  if (info.retires !== undefined && info.retires <= today) return { kind: 'retired', since: info.retires };
  if (info.retires !== undefined || info.deprecated !== undefined) return { kind: 'deprecated', retires: info.retires ?? null };
  return { kind: 'active' };
}

/** One call's tokens, as the LLM layer counts them (input includes what was read from or written to the cache). */
export interface TokenCounts {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedInputTokens: number;
  readonly cacheWriteInputTokens?: number;
  /** The part of the cache writes with a 1-hour lifetime. */
  readonly cacheWrite1hInputTokens?: number;
}

/** What tokens cost at a price: each part of the input at its own rate, then the output. */
export function dollarsAt(tokens: TokenCounts, price: ModelPrice): number {
  const written = tokens.cacheWriteInputTokens ?? 0;
  const written1h = Math.min(tokens.cacheWrite1hInputTokens ?? 0, written);
  const plain = tokens.inputTokens - tokens.cachedInputTokens - written;
  return (
    (plain * price.input +
      tokens.cachedInputTokens * price.cacheRead +
      (written - written1h) * price.cacheWrite +
      written1h * price.cacheWrite1h +
      tokens.outputTokens * price.output) /
    1e6
  );
}

/** What a call cost at the table's list price; null for a model the table lacks. */
export function listPriceDollars(provider: string, model: string, tokens: TokenCounts): number | null {
  const info = modelInfo(provider, model);
  return info === null ? null : dollarsAt(tokens, info.price);
}
