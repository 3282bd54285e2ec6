import { afterEach, describe, expect, it } from 'vitest';
import { ManualTimers } from '../../src/clock.ts';
import type { LlmRequest } from '../../src/llm/types.ts';
import { reply, type FakeLlmServer } from '../../scripts/fakes/llm/fake-llm-server.ts';
import { PROVIDER_NAMES, startFakeProvider } from '../../scripts/fakes/llm/fake-providers.ts';
import { objectContaining } from '../support/matchers.ts';

const ASK: LlmRequest = { model: 'test-model', system: { stable: 'Be brief.' }, messages: [{ role: 'user', content: 'Hi' }] };

describe.each(PROVIDER_NAMES)('the fake %s server', (name) => {
  let fake: FakeLlmServer | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('GIVEN queued replies and a handler WHEN called three times THEN the queue answers first, then the handler', async () => {
    const started = await startFakeProvider(name, { script: [reply.text('queued')] });
    fake = started.fake.handle((request) => reply.text(`handled #${request.index}`));

    const texts = [];
    for (let i = 0; i < 3; i++) {
      const result = await started.provider.complete(ASK);
      texts.push(result.ok ? result.value.text : result.error.kind);
    }

    expect(texts).toEqual(['queued', 'handled #1', 'handled #2']);
  });

  it('GIVEN nothing scripted WHEN called THEN the call fails at once, not retried, saying no reply was scripted', async () => {
    const started = await startFakeProvider(name);
    fake = started.fake;

    const result = await started.provider.complete(ASK);

    expect(result).toEqual({ ok: false, error: objectContaining({ kind: 'bad_request', status: 418 }) });
    expect(!result.ok && result.error.message).toContain('no reply scripted for request #0');
    expect(fake.requests).toHaveLength(1);
  });

  it('GIVEN a slow reply WHEN called THEN the answer takes at least that long', async () => {
    const started = await startFakeProvider(name, { script: [reply.slow(200, reply.text('yawn'))] });
    fake = started.fake;

    const result = await started.provider.complete(ASK);

    expect(result.ok && result.value.latencyMs).toBeGreaterThanOrEqual(195);
  });

  it('GIVEN a fake on a manual clock WHEN called THEN its answer is held until its latency has passed on that clock', async () => {
    const clock = new ManualTimers(0);
    const started = await startFakeProvider(name, {
      script: () => reply.text('late'),
      clock,
      latency: () => ({ firstTokenMs: 1000, totalMs: 3000 }),
    });
    fake = started.fake;

    const answer = started.provider.complete(ASK);
    await fake.untilWaiting(1);
    clock.advanceTo(2999);
    const heldAt2999 = fake.waitingOnClock;
    clock.advanceTo(3000);
    const result = await answer;

    expect(heldAt2999).toBe(1);
    expect(result.ok && result.value.text).toBe('late');
    expect(fake.requests[0]!.arrivedAt).toBe(0);
  });

  it('GIVEN two answers due at the same moment on the clock WHEN it comes THEN one goes out, and the other a millisecond later', async () => {
    const clock = new ManualTimers(0);
    const started = await startFakeProvider(name, {
      script: () => reply.text('ok'),
      clock,
      latency: () => ({ firstTokenMs: 500, totalMs: 500 }),
    });
    fake = started.fake;

    const answers = [started.provider.complete(ASK), started.provider.complete({ ...ASK, messages: [{ role: 'user', content: 'Hello' }] })];
    await fake.untilWaiting(2);
    clock.advanceTo(500);
    const heldAt500 = fake.waitingOnClock;
    clock.advanceTo(501);
    const results = await Promise.all(answers);

    expect(heldAt500).toBe(1);
    expect(fake.waitingOnClock).toBe(0);
    expect(results.every((result) => result.ok)).toBe(true);
  });

  it('GIVEN an answer held on the clock WHEN the caller aborts THEN it stops waiting and nothing is billed', async () => {
    const clock = new ManualTimers(0);
    const started = await startFakeProvider(name, { script: () => reply.text('never'), clock });
    fake = started.fake;
    const controller = new AbortController();

    const answer = started.provider.complete({ ...ASK, signal: controller.signal });
    await fake.untilWaiting(1);
    controller.abort();
    const result = await answer;
    await fake.untilWaiting(0);

    expect(result).toEqual({ ok: false, error: objectContaining({ kind: 'aborted' }) });
    expect(fake.usages).toEqual([]);
  });

  it('GIVEN a handler that throws WHEN called THEN the call fails with the reason, for the test to see', async () => {
    const started = await startFakeProvider(name, {
      script: () => {
        throw new Error('unexpected prompt');
      },
    });
    fake = started.fake;

    const result = await started.provider.complete(ASK);

    expect(!result.ok && result.error.message).toContain('unexpected prompt');
  });
});
