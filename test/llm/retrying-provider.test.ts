import { describe, expect, it } from 'vitest';
import { withRetries } from '../../src/llm/retrying-provider.ts';
import type { LlmError, LlmProvider, LlmRequest, LlmResponse } from '../../src/llm/types.ts';
import { ManualTimers } from '../../src/clock.ts';
import { err, ok, type Result } from '../../src/result.ts';

const ASK: LlmRequest = { model: 'm', system: { stable: 'You play Mafia.' }, messages: [{ role: 'user', content: 'Vote.' }] };

const ANSWER: LlmResponse = {
  text: 'Ann',
  toolCalls: [],
  structured: undefined,
  stopReason: 'end_turn',
  usage: { inputTokens: 1, outputTokens: 1, cachedInputTokens: 0 },
  model: 'm',
  latencyMs: 0,
};

/** A provider whose attempts meet the scripted outcomes in order; 'hang' waits for the abort. */
function scripted(outcomes: readonly (LlmError | 'answer' | 'hang')[]) {
  const attempts: number[] = [];
  const clock = new ManualTimers(0);
  const provider: LlmProvider = {
    name: 'openai',
    async complete(request): Promise<Result<LlmResponse, LlmError>> {
      attempts.push(clock.now());
      const next = outcomes[attempts.length - 1] ?? 'answer';
      if (next === 'answer') return ok(ANSWER);
      if (next === 'hang') {
        await new Promise<void>((resolve) => request.signal?.addEventListener('abort', () => resolve(), { once: true }));
        return err({ kind: 'aborted', message: 'aborted' });
      }
      return err(next);
    },
    stream: async function* () {},
  };
  return { provider, attempts, clock };
}

/** Runs the call, moving the manual clock whenever it waits on it. */
async function settle<T>(clock: ManualTimers, work: Promise<T>): Promise<T> {
  let done = false;
  void work.finally(() => (done = true));
  // A function, because `done` flips in the callback above, which the type checker does not follow.
  const pending = () => !done;
  while (pending()) {
    await new Promise((resolve) => setImmediate(resolve));
    if (pending() && !clock.fireNext()) await new Promise((resolve) => setImmediate(resolve));
  }
  return work;
}

describe('retrying a model call within its deadline', () => {
  it('GIVEN a 429 with retry-after 2 s and time to spare WHEN called THEN it waits 2 s on the clock and the second attempt answers', async () => {
    const { provider, attempts, clock } = scripted([{ kind: 'rate_limited', message: '429', status: 429, retryAfterMs: 2000 }]);
    const result = await settle(clock, withRetries(provider, { clock, attemptTimeoutMs: 60_000 }).complete({ ...ASK, deadline: 30_000 }));
    expect(result.ok).toBe(true);
    expect(attempts).toEqual([0, 2000]);
  });

  it('GIVEN a retry-after that would end past the deadline WHEN called THEN no wait is begun and the 429 comes back at once', async () => {
    const { provider, attempts, clock } = scripted([{ kind: 'rate_limited', message: '429', status: 429, retryAfterMs: 20_000 }]);
    const result = await settle(clock, withRetries(provider, { clock, attemptTimeoutMs: 60_000 }).complete({ ...ASK, deadline: 10_000 }));
    expect(result).toMatchObject({ ok: false, error: { kind: 'rate_limited' } });
    expect(attempts).toEqual([0]);
    expect(clock.now()).toBe(0);
  });

  it('GIVEN a call that hangs WHEN the attempt timeout passes THEN it is aborted as a timeout and retried while the deadline allows', async () => {
    const { provider, attempts, clock } = scripted(['hang', 'answer']);
    const result = await settle(
      clock,
      withRetries(provider, { clock, attemptTimeoutMs: 15_000, random: () => 0 }).complete({ ...ASK, deadline: 60_000 }),
    );
    expect(result.ok).toBe(true);
    // Aborted at 15 s, then the SDKs' first back-off of 0.5 s.
    expect(attempts).toEqual([0, 15_500]);
  });

  it('GIVEN a call that hangs with less time left than the attempt timeout WHEN called THEN the attempt is cut at the deadline', async () => {
    const { provider, attempts, clock } = scripted(['hang', 'hang', 'hang']);
    const result = await settle(clock, withRetries(provider, { clock, attemptTimeoutMs: 60_000 }).complete({ ...ASK, deadline: 8_000 }));
    expect(result).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    expect(attempts).toEqual([0]);
    expect(clock.now()).toBe(8_000);
  });

  it('GIVEN an auth failure WHEN called THEN it is not retried', async () => {
    const { provider, attempts, clock } = scripted([{ kind: 'auth', message: '401', status: 401 }]);
    const result = await settle(clock, withRetries(provider, { clock, attemptTimeoutMs: 60_000 }).complete(ASK));
    expect(result).toMatchObject({ ok: false, error: { kind: 'auth' } });
    expect(attempts).toHaveLength(1);
  });

  it('GIVEN the caller aborts during a back-off WHEN called THEN it ends at once as aborted', async () => {
    const { provider, attempts, clock } = scripted([{ kind: 'server', message: '500', status: 500 }]);
    const controller = new AbortController();
    const call = withRetries(provider, { clock, attemptTimeoutMs: 60_000 }).complete({ ...ASK, signal: controller.signal });
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    expect(await call).toMatchObject({ ok: false, error: { kind: 'aborted' } });
    expect(attempts).toHaveLength(1);
  });
});
