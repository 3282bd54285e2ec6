import { err } from '../result.ts';
import { callCost, type CostSite, type TokenBudget } from './budget.ts';
import type { CallRecord } from '../llm/tool-loop.ts';
import type { LlmError, LlmProvider, LlmRequest, StreamDelta, TokenUsage } from '../llm/types.ts';

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

const NO_USAGE: TokenUsage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };

/**
 * Wraps a provider so that every `complete` and `stream` asks the budgets first (refused: an
 * error of kind `budget` whose message says when it resets, and nothing is sent) and writes a
 * ledger row after, ok or failed. The code that calls it needs to know nothing of budgets.
 */
export function meteredProvider(provider: LlmProvider, options: MeterOptions): MeteredProvider {
  const { budget, site } = options;
  let refused: string | null = null;

  async function refusal(): Promise<LlmError | null> {
    const message = await budget.refusal(site.guildId, site.userId ?? null);
    if (message === null) return null;
    refused = message;
    return { kind: 'budget', message };
  }

  async function record(request: LlmRequest, started: number, outcome: { usage: TokenUsage } | { error: LlmError }): Promise<void> {
    const base = { provider: provider.name, model: request.model, latencyMs: performance.now() - started };
    const call: CallRecord =
      'usage' in outcome ? { ...base, usage: outcome.usage, ok: true } : { ...base, usage: NO_USAGE, ok: false, error: outcome.error.kind };
    try {
      // Awaited: the next call's check must see this one's tokens.
      await budget.record(callCost(site, call));
    } catch (error) {
      options.onRecordError?.(error);
    }
  }

  return {
    name: provider.name,
    budgetRefused: () => refused !== null,
    refusalMessage: () => refused,

    async complete(request) {
      const refusedWith = await refusal();
      if (refusedWith) return err(refusedWith);
      const started = performance.now();
      const result = await provider.complete(request);
      await record(request, started, result.ok ? { usage: result.value.usage } : { error: result.error });
      return result;
    },

    async *stream(request): AsyncGenerator<StreamDelta> {
      const refusedWith = await refusal();
      if (refusedWith) {
        yield { type: 'error', error: refusedWith };
        return;
      }
      const started = performance.now();
      let ended = false;
      try {
        for await (const delta of provider.stream(request)) {
          if (delta.type === 'done' || delta.type === 'error') {
            ended = true;
            await record(request, started, delta.type === 'done' ? { usage: delta.response.usage } : { error: delta.error });
          }
          yield delta;
        }
      } finally {
        // The reader stopped early (a Stop button): the call still happened.
        if (!ended) await record(request, started, { error: { kind: 'aborted', message: 'the stream was not read to its end' } });
      }
    },
  };
}
