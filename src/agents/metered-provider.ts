import { callCost, type CostSite, type TokenBudget } from './budget.ts';
import { metered } from '../llm/metered.ts';
import type { LlmProvider } from '../llm/types.ts';

/** A provider whose calls are checked against the daily budgets and recorded in the ledger. */
export interface MeteredProvider extends LlmProvider {
  /** Whether a call was refused because a budget was spent (nothing was sent for it). */
  budgetRefused(): boolean;
  /** The refusal's sentence (which budget is spent, when it resets); null while none was refused. */
  refusalMessage(): string | null;
}

export interface MeterOptions {
  readonly budget: Pick<TokenBudget, 'refusal' | 'record'>;
  /** Whose budgets pay (the server's or the DMs', and the person's) and what the calls are for. */
  readonly site: CostSite;
  /** A ledger row that could not be written; the call's own result stands. */
  readonly onRecordError?: (error: unknown) => void;
}

/**
 * Wraps a provider so that every `complete` and `stream` asks the budgets first (refused: an
 * error of kind `budget` whose message says when it resets, and nothing is sent) and writes a
 * ledger row after, ok or failed. The code that calls it needs to know nothing of budgets.
 */
export function meteredProvider(provider: LlmProvider, options: MeterOptions): MeteredProvider {
  const { budget, site } = options;
  let refused: string | null = null;
  const wrapped = metered(provider, {
    async admit() {
      const message = await budget.refusal(site.guildId, site.userId ?? null);
      if (message === null) return null;
      refused = message;
      return { kind: 'budget', message };
    },
    async record(call) {
      try {
        // Awaited: the next call's check must see this one's tokens.
        await budget.record(callCost(site, call));
      } catch (error) {
        options.onRecordError?.(error);
      }
    },
  });
  return { ...wrapped, budgetRefused: () => refused !== null, refusalMessage: () => refused };
}
