import { afterEach, describe, expect, it } from 'vitest';
import { reply, type FakeLlmServer } from '../../../scripts/fakes/llm/fake-llm-server.ts';
import { startFakeOpenAi } from '../../../scripts/fakes/llm/fake-openai.ts';

let fake: FakeLlmServer | undefined;
afterEach(() => fake?.close());

/** One chat completion request on the wire, as an SDK sends it: its status and text. */
async function ask(server: FakeLlmServer, text: string): Promise<{ status: number; body: string }> {
  const res = await fetch(`${server.baseURL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: text }] }),
  });
  return { status: res.status, body: await res.text() };
}

describe('a fake model server reset between tests', () => {
  it('GIVEN a queued reply, a handler and requests served WHEN reset THEN it answers as a new server on the same address: nothing scripted, nothing recorded', async () => {
    fake = await startFakeOpenAi([reply.text('queued one'), reply.text('queued two')]);
    fake.handle(() => reply.text('from the handler'));
    expect((await ask(fake, 'first')).body).toContain('queued one');
    const address = fake.baseURL;

    fake.reset();
    expect(fake.baseURL).toBe(address);
    expect(fake.requests).toEqual([]);
    expect(fake.usages).toEqual([]);
    expect(fake.usageTotals.calls).toBe(0);
    const unscripted = await ask(fake, 'second');
    expect(unscripted.status).toBe(418);
    expect(unscripted.body).toContain('no reply scripted for request #0');
    expect(fake.requests.map((r) => r.index)).toEqual([0]);
  });
});
