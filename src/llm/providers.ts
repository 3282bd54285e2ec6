import type { LlmConfig, LlmProviderSetting } from '../config.ts';
import { err, ok, type Result } from '../result.ts';
import { createAnthropicProvider } from './anthropic-provider.ts';
import { createOpenAiProvider } from './openai-provider.ts';
import { withRetries } from './retrying-provider.ts';
import { modelAllowed } from './allowed-models.ts';
import { realTimers, type Timers } from '../clock.ts';
import type { LlmProvider, ProviderName } from './types.ts';

/** What a persona or a game asks for; either part may be left to the next level. */
export interface ModelPreference {
  readonly provider?: LlmProviderSetting;
  readonly model?: string;
}

/** Which level named the model: the setting to change when its provider no longer serves it. */
export type ModelSource = 'persona' | 'game' | 'env';

export interface ModelChoice {
  readonly provider: LlmProviderSetting;
  /** `heuristic` for offline: the rule-based brain, no model. */
  readonly model: string;
  readonly source: ModelSource;
  /** A model a persona or the game named that the operator does not allow (ALLOWED_MODELS): passed over for this one. */
  readonly refused?: { readonly model: string; readonly source: ModelSource };
}

const OFFLINE_MODEL = 'heuristic';

/**
 * The provider and model for one seat: the persona's preference, else the game's, else the
 * environment's (LLM_PROVIDER and OPENAI_MODEL / ANTHROPIC_MODEL).
 *
 * - A preference naming a provider this bot has no key for is skipped, so a persona that prefers
 *   Claude still plays (on the next level's provider) where only OpenAI is configured.
 * - A preference with a model but no provider means that model on the provider chosen below it.
 * - The model comes from the most specific level that names one for the chosen provider, else it
 *   is that provider's default from the environment.
 */
export function resolveModel(input: {
  readonly persona?: ModelPreference;
  readonly game?: ModelPreference;
  readonly env: LlmConfig;
}): ModelChoice {
  const { env } = input;
  const levels = [input.persona, input.game].filter(
    (level): level is ModelPreference => level !== undefined && (level.provider === undefined || isConfigured(level.provider, env)),
  );
  const chooser = levels.find((level) => level.provider !== undefined);
  const provider = chooser?.provider ?? env.provider;
  if (provider === 'offline') return { provider, model: OFFLINE_MODEL, source: sourceOf(chooser, input) };
  const naming = levels.filter(
    (level) => level.model !== undefined && level.model !== '' && (level.provider === undefined || level.provider === provider),
  );
  const named = naming.find((level) => modelAllowed(env, provider, level.model ?? ''));
  const passedOver = naming.find((level) => !modelAllowed(env, provider, level.model ?? ''));
  const refused =
    passedOver !== undefined && (named === undefined || naming.indexOf(passedOver) < naming.indexOf(named))
      ? { model: passedOver.model ?? '', source: sourceOf(passedOver, input) }
      : undefined;
  return { provider, model: named?.model ?? env[provider].model, source: sourceOf(named, input), ...(refused && { refused }) };
}

function sourceOf(
  level: ModelPreference | undefined,
  input: { readonly persona?: ModelPreference; readonly game?: ModelPreference },
): ModelSource {
  if (level === undefined) return 'env';
  return level === input.persona ? 'persona' : 'game';
}

/** How a provider is named to people. */
export const PROVIDER_LABELS: Readonly<Record<ProviderName, string>> = { openai: 'OpenAI', anthropic: 'Anthropic' };

/** The setting that names a provider's model at `source`, as the host and the operator are told to change it. */
export function modelSetting(provider: ProviderName, source: ModelSource): string {
  switch (source) {
    case 'persona':
      return "the persona's model (`/persona edit`)";
    case 'game':
      return "the game's model option";
    case 'env':
      return provider === 'openai' ? 'OPENAI_MODEL' : 'ANTHROPIC_MODEL';
  }
}

/** Whether this bot can call the provider: a key, or for openai a base URL of a local server. */
export function isConfigured(provider: LlmProviderSetting, env: LlmConfig): boolean {
  switch (provider) {
    case 'offline':
      return true;
    case 'openai':
      return env.openai.apiKey !== undefined || env.openai.baseURL !== undefined;
    case 'anthropic':
      return env.anthropic.apiKey !== undefined;
  }
}

export interface ProviderOptions {
  /**
   * The clock retries and per-attempt timeouts run on (default the real one): calls are retried by
   * `withRetries` within their deadline, and the SDK client retries nothing itself.
   */
  readonly clock?: Timers;
  /** Leave retries to the SDK instead (streams: the persona editor). */
  readonly sdkRetries?: boolean;
}

/** A provider client from the configuration; one per provider is enough for the whole bot. */
export function createProvider(provider: ProviderName, env: LlmConfig, options: ProviderOptions = {}): Result<LlmProvider, string> {
  if (!isConfigured(provider, env)) {
    return err(provider === 'openai' ? 'openai needs OPENAI_API_KEY or OPENAI_BASE_URL' : 'anthropic needs ANTHROPIC_API_KEY');
  }
  const maxRetries = options.sdkRetries ? 2 : 0;
  const client =
    provider === 'openai'
      ? createOpenAiProvider({ apiKey: env.openai.apiKey, baseURL: env.openai.baseURL, timeoutMs: env.timeoutMs, maxRetries })
      : createAnthropicProvider({
          apiKey: env.anthropic.apiKey ?? '',
          baseURL: env.anthropic.baseURL,
          timeoutMs: env.timeoutMs,
          maxRetries,
        });
  if (options.sdkRetries) return ok(client);
  return ok(withRetries(client, { clock: options.clock ?? realTimers, attemptTimeoutMs: env.timeoutMs }));
}
