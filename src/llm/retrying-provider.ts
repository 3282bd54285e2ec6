import type { Timers } from '../clock.ts';
import { err, type Result } from '../result.ts';
import type { LlmError, LlmProvider, LlmRequest, LlmResponse } from './types.ts';

export interface RetryPolicy {
  /** The clock deadlines are read on and waits are timed by (virtual in the bench and tests). */
  readonly clock: Timers;
  /** The longest one attempt may take (LLM_TIMEOUT_MS); a request's deadline may cut it shorter. */
  readonly attemptTimeoutMs: number;
  /** Attempts in all, the first included. Default 3: the SDKs' own default of two retries. */
  readonly maxAttempts?: number;
  /** No attempt is started with less time than this left before the deadline. Default 1,000 ms. */
  readonly minAttemptMs?: number;
  /** Jitter for the back-off; seeded in benchmarks. */
  readonly random?: () => number;
}

const RETRYABLE = new Set<LlmError['kind']>(['rate_limited', 'server', 'timeout', 'network']);

/** What the SDKs retry: 408, 409, 429, 5xx and lost connections, unless the server says otherwise. */
function isRetryable(error: LlmError): boolean {
  // A model the provider does not serve stays unserved until a setting changes, whatever the headers say.
  if (error.kind === 'model_unavailable') return false;
  if (error.shouldRetry !== undefined) return error.shouldRetry;
  return RETRYABLE.has(error.kind) || error.status === 409;
}

/** The SDKs' back-off: 0.5 s doubling to at most 8 s, less up to a quarter of jitter. */
function backoffMs(retry: number, random: () => number): number {
  return Math.min(500 * 2 ** retry, 8000) * (1 - random() * 0.25);
}

/**
 * Retries `complete` the way the SDKs do (so build the SDK clients with no retries of their own),
 * but on an injected clock and within the request's deadline: each attempt is aborted at the
 * attempt timeout or the deadline, whichever comes first, and no attempt or `retry-after` wait is
 * begun that cannot end before the deadline. A game's moves then never wait on a model past
 * their phase, and the bench can run the same policy on virtual time.
 *
 * Streams pass through unretried: only the persona editor streams, and it keeps the SDK's retries.
 */
export function withRetries(provider: LlmProvider, policy: RetryPolicy): LlmProvider {
  const { clock } = policy;
  const maxAttempts = policy.maxAttempts ?? 3;
  const minAttemptMs = policy.minAttemptMs ?? 1000;
  const random = policy.random ?? Math.random;

  async function complete(request: LlmRequest): Promise<Result<LlmResponse, LlmError>> {
    const deadline = request.deadline ?? Number.POSITIVE_INFINITY;
    let last: LlmError = { kind: 'timeout', message: 'no time was left to ask the model' };
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      if (request.signal?.aborted) return err({ kind: 'aborted', message: 'the call was aborted' });
      const left = deadline - clock.now();
      if (left < minAttemptMs) return err(last);
      const result = await attemptOnce(request, Math.min(policy.attemptTimeoutMs, left));
      if (result.ok) return result;
      last = result.error;
      if (!isRetryable(last) || attempt === maxAttempts - 1) return result;
      const wait = last.retryAfterMs ?? backoffMs(attempt, random);
      if (clock.now() + wait + minAttemptMs > deadline) return result;
      if (!(await pause(clock, wait, request.signal))) return err({ kind: 'aborted', message: 'the call was aborted' });
    }
    return err(last);
  }

  async function attemptOnce(request: LlmRequest, timeoutMs: number): Promise<Result<LlmResponse, LlmError>> {
    const timer = new AbortController();
    const cancel = clock.at(clock.now() + timeoutMs, () => timer.abort());
    const signal = request.signal ? AbortSignal.any([request.signal, timer.signal]) : timer.signal;
    try {
      const result = await provider.complete({ ...request, signal });
      // Our own timer, not the caller, ended it: that is a timeout, and worth another attempt.
      if (!result.ok && result.error.kind === 'aborted' && timer.signal.aborted && !request.signal?.aborted) {
        return err({ kind: 'timeout', message: `no answer within ${Math.round(timeoutMs)} ms` });
      }
      return result;
    } finally {
      cancel();
    }
  }

  return { name: provider.name, complete, stream: (request) => provider.stream(request) };
}

/** Waits `ms` on the clock; false when the signal ended the wait first. */
export function pause(clock: Timers, ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      cancel();
      resolve(false);
    };
    const cancel = clock.at(clock.now() + ms, () => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
