/**
 * Every model Dramatis knows by name, in one table: what it costs, the shortest prompt prefix its
 * provider caches, and when the provider deprecates or retires it. The defaults, the bench, the
 * cost ledger and the README all read this table; nothing else holds a price.
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
  /** Input written to the cache with a 5-minute lifetime (OpenAI bills no premium: the input price). */
  readonly cacheWrite: number;
  /** Input written with a 1-hour lifetime (Anthropic, 2× input); the 5-minute price where there is none. */
  readonly cacheWrite1h: number;
}

export interface ModelInfo {
  readonly provider: ModelProvider;
  /** The id sent to the API. */
  readonly id: string;
  readonly price: ModelPrice;
  /** The shortest prefix the provider caches, in tokens; a shorter one is never read from the cache. */
  readonly cacheMinTokens: number;
  /** When the provider marked it deprecated (ISO date), if it has. */
  readonly deprecated?: string;
  /** When requests to it start failing (ISO date), if announced. */
  readonly retires?: string;
  /** When and where the row was last checked. */
  readonly checked: string;
}

export const MODELS: readonly ModelInfo[] = [];

/** The model each provider plays when neither the persona nor the game names one. */
export const DEFAULT_MODELS: Readonly<Record<ModelProvider, string>> = {
  openai: 'gpt-4.1-mini',
  anthropic: 'claude-sonnet-4-5',
};

/** The row of `provider`'s model `id`, if the table has it. */
export function modelInfo(provider: string, id: string): ModelInfo | null {
  return MODELS.find((m) => m.provider === provider && m.id === id) ?? null;
}
