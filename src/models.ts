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
