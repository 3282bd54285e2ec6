import { DEFAULT_MODELS, MODELS, modelInfo, type ModelInfo, type ModelProvider } from '../../src/models.ts';

const BENCH_PROVIDERS: readonly ModelProvider[] = ['anthropic', 'openai'];

/** A rough price of a game's tokens, to rank models: most input is read from the cache, and output costs most. */
const rank = (m: ModelInfo): number => m.price.input + m.price.output;

/**
 * The models the bench prices: each provider's default, and its cheapest row of the table that is
 * not deprecated, whatever the table holds. Throws when a default has no row: it could not be priced.
 */
export function benchModels(): { readonly model: ModelInfo; readonly isDefault: boolean }[] {
  return BENCH_PROVIDERS.flatMap((provider) => {
    const id = DEFAULT_MODELS[provider];
    const chosen = modelInfo(provider, id);
    if (chosen === null) throw new Error(`DEFAULT_MODELS.${provider} is ${id}, which has no row in src/models.ts: it cannot be priced`);
    const cheaper = MODELS.filter(
      (m) => m.provider === provider && m.id !== id && m.deprecated === undefined && rank(m) < rank(chosen),
    ).sort((a, b) => rank(a) - rank(b))[0];
    return [{ model: chosen, isDefault: true }, ...(cheaper ? [{ model: cheaper, isDefault: false }] : [])];
  });
}
