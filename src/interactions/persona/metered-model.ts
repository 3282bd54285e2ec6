import type { CostSite } from '../../agents/budget.ts';
import { meteredProvider, type MeteredProvider } from '../../agents/metered-provider.ts';
import type { PersonaDeps } from './context.ts';
import type { PersonaModel } from './models.ts';

export interface MeteredModel {
  readonly provider: MeteredProvider;
  readonly model: string;
}

/**
 * The configured model for one interaction: each call checked against the daily budgets that
 * apply to `site` first (the place's and, with `site.userId`, the person's) and recorded in the
 * ledger as `site` after. Ask `provider.refusalMessage()` when a call failed.
 */
export function meteredModel(deps: Pick<PersonaDeps, 'budget' | 'log'>, model: PersonaModel, site: CostSite): MeteredModel {
  const onRecordError = (error: unknown) => deps.log.warn(`an LLM call's cost was not recorded: ${String(error)}`);
  return { provider: meteredProvider(model.provider, { budget: deps.budget, site, onRecordError }), model: model.model };
}
