import { err } from '../result.ts';
import type { LlmError, LlmErrorKind, LlmProvider, LlmRequest, ProviderName, StreamDelta, TokenUsage } from './types.ts';

/** One model call, for cost and latency accounting. */
export type CallRecord = {
  readonly provider: ProviderName;
  /** The model asked for (the response may name a dated snapshot of it). */
  readonly model: string;
  /** Zero for a failed call. */
  readonly usage: TokenUsage;
  /** Wall-clock time of the call, the SDK's retries included. */
  readonly latencyMs: number;
} & ({ readonly ok: true } | { readonly ok: false; readonly error: LlmErrorKind });

/** What is done around every call of a metered provider. */
export interface Meter {
  /** Asked before each call: an error refuses the call (it is returned, nothing is sent). Absent: every call goes. */
  readonly admit?: () => Promise<LlmError | null>;
  /** Each call's record as it ends, ok or failed; awaited before the call's result is handed on. */
  readonly record: (call: CallRecord) => Promise<void> | void;
}

const NO_USAGE: TokenUsage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };

/** The one builder of a call's record: what was asked of whom, how long it took, and what it used or why it failed. */
function callRecord(
  provider: ProviderName,
  request: LlmRequest,
  started: number,
  outcome: { readonly usage: TokenUsage } | { readonly error: LlmError },
): CallRecord {
  const base = { provider, model: request.model, latencyMs: performance.now() - started };
  return 'usage' in outcome
    ? { ...base, usage: outcome.usage, ok: true }
    : { ...base, usage: NO_USAGE, ok: false, error: outcome.error.kind };
}

/**
 * The one wrapper every model call goes through: `complete` and `stream` are admitted by the meter
 * first and recorded after, ok or failed; a stream its reader left early is recorded as aborted
 * (the call still happened). The code that calls it knows nothing of budgets or ledgers.
 */
export function metered(provider: LlmProvider, meter: Meter): LlmProvider {
  const record = (request: LlmRequest, started: number, outcome: Parameters<typeof callRecord>[3]) =>
    meter.record(callRecord(provider.name, request, started, outcome));

  return {
    name: provider.name,

    async complete(request) {
      const refused = meter.admit ? await meter.admit() : null;
      if (refused) return err(refused);
      const started = performance.now();
      const result = await provider.complete(request);
      await record(request, started, result.ok ? { usage: result.value.usage } : { error: result.error });
      return result;
    },

    async *stream(request): AsyncGenerator<StreamDelta> {
      const refused = meter.admit ? await meter.admit() : null;
      if (refused) {
        yield { type: 'error', error: refused };
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
        if (!ended) await record(request, started, { error: { kind: 'aborted', message: 'the stream was not read to its end' } });
      }
    },
  };
}
