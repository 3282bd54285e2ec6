import { afterEach, describe, expect, it } from 'vitest';
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
