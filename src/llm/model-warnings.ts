import type { Logger } from '../log.ts';
import { PROVIDER_LABELS } from './providers.ts';
import type { ProviderName } from './types.ts';

/**
 * What the operator is told about a model its provider does not serve: once per model and
 * process, though every seat on it fails on every turn; the start-up check and the games share it.
 */
/** Models remembered as told; past it the table starts over (at worst a model is warned about twice). */
const MODELS_KEPT = 1000;

export class ModelWarnings {
  /** Models told about (bound: MODELS_KEPT). */
  private readonly told = new Set<string>();

  constructor(private readonly log: Logger) {}

  /**
   * The provider answered that it does not serve `model`, named by `setting`; `detail` is its own
   * words, for the log.
   */
  unavailable(model: { readonly provider: ProviderName; readonly id: string }, setting: string, detail: string): void {
    const key = `${model.provider}:${model.id}`;
    if (this.told.has(key)) return;
    if (this.told.size >= MODELS_KEPT) this.told.clear();
    this.told.add(key);
    this.log.warn(
      `${PROVIDER_LABELS[model.provider]} does not serve the model ${model.id} (retired or unknown): AI seats on it play on ` +
        `instinct. Change ${setting} to a current model (docs/operators.md, Models). ${detail}`,
    );
  }
}
