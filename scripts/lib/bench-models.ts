import { DEFAULT_MODELS, MODELS, modelInfo, modelStatus, type ModelInfo, type ModelProvider } from '../../src/models.ts';

const BENCH_PROVIDERS: readonly ModelProvider[] = ['anthropic', 'openai'];

/** A rough price of a game's tokens, to rank models: most input is read from the cache, and output costs most. */
const rank = (m: ModelInfo): number => m.price.input + m.price.output;

/**
 * The models the bench prices: each provider's default, and beside it the cheapest current row of
 * the table that is cheaper, or where the default is the cheapest, the next dearer (a stronger
 * seat), whatever the table holds. Throws when a default has no row: it could not be priced.
 */
export function benchModels(today = new Date().toISOString().slice(0, 10)): { readonly model: ModelInfo; readonly isDefault: boolean }[] {
  return BENCH_PROVIDERS.flatMap((provider) => {
    const id = DEFAULT_MODELS[provider];
    const chosen = modelInfo(provider, id);
    if (chosen === null) throw new Error(`DEFAULT_MODELS.${provider} is ${id}, which has no row in src/models.ts: it cannot be priced`);
    const current = MODELS.filter((m) => m.provider === provider && m.id !== id && modelStatus(m, today).kind === 'active');
    const cheaper = current.filter((m) => rank(m) < rank(chosen)).sort((a, b) => rank(a) - rank(b))[0];
    const dearer = current.filter((m) => rank(m) >= rank(chosen)).sort((a, b) => rank(a) - rank(b))[0];
    const beside = cheaper ?? dearer;
    return [{ model: chosen, isDefault: true }, ...(beside ? [{ model: beside, isDefault: false }] : [])];
  });
}
