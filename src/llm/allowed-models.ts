import type { LlmConfig } from '../config.ts';
import { modelInfo } from '../models.ts';
import type { ProviderName } from './types.ts';

/**
 * Whether a persona or a game may play on this model, at the operator's expense. The provider's
 * configured model always may. ALLOWED_MODELS, when set, names the others; unset, they are the
 * models of the table (src/models.ts) that cost no more than the configured one, input and output
 * alike, so an imported persona cannot seat itself on the most expensive model there is. A model
 * the table does not know (a self-hosted server's) needs ALLOWED_MODELS.
 */
export function modelAllowed(
  env: Pick<LlmConfig, 'openai' | 'anthropic' | 'allowedModels'>,
  provider: ProviderName,
  model: string,
): boolean {
  const configured = env[provider].model;
  if (model === configured) return true;
  if (env.allowedModels !== undefined) return env.allowedModels.includes(model);
  const asked = modelInfo(provider, model);
  const base = modelInfo(provider, configured);
  if (asked === null || base === null) return false;
  return asked.price.input <= base.price.input && asked.price.output <= base.price.output;
}
