import OpenAI from 'openai';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reply, type FakeLlmServer } from '../../scripts/fakes/llm/fake-llm-server.ts';
import { startFakeOpenAi } from '../../scripts/fakes/llm/fake-openai.ts';

/*
 * The fake's automatic cache as OpenAI documents it, seen through the real SDK. Token figures
 * follow the fakes' estimate: ceil(characters / 4) of the serialized request (tools, then
 * response_format, then each message's JSON); a hit is the longest prefix seen before, in whole
 * 128-token steps (512 characters), from 1,024 tokens.
 */

const MINUTE = 60_000;
const HI: ChatCompletionMessageParam = { role: 'user', content: 'Hi' };

/** A system message whose JSON is exactly `tokens` × 4 characters, its content repeating `fill`. */
function system(tokens: number, fill = 'a'): ChatCompletionMessageParam {
  return { role: 'system', content: fill.repeat(tokens * 4 - JSON.stringify({ role: 'system', content: '' }).length) };
}

function promptTokens(...parts: unknown[]): number {
  return Math.ceil(parts.reduce((n: number, part) => n + JSON.stringify(part).length, 0) / 4);
}

function voteTool(names: readonly string[]): ChatCompletionTool {
  return {
    type: 'function',
    function: { name: 'vote', parameters: { type: 'object', properties: { target: { type: 'string', enum: [...names] } } } },
  };
}

function decision(names: readonly string[]): ChatCompletionCreateParamsNonStreaming['response_format'] {
  return {
    type: 'json_schema',
    json_schema: {
      name: 'decision',
      strict: true,
      schema: { type: 'object', properties: { target: { type: 'string', enum: [...names] } } },
    },
  };
}

let fake: FakeLlmServer | undefined;
let clock = 0;
beforeEach(() => {
  clock = 0;
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** `firstTokenMs`: how long after a request its answer begins, on `clock` (what it writes is readable from then). */
async function client(firstTokenMs = 0): Promise<OpenAI> {
  const latency = () => ({ firstTokenMs, totalMs: firstTokenMs });
  fake = await startFakeOpenAi(() => reply.text('ok'), { now: () => clock, latency });
  return new OpenAI({ apiKey: 'test-key', baseURL: fake.baseURL, maxRetries: 0, logLevel: 'off' });
}

async function usageOf(sdk: OpenAI, params: Partial<ChatCompletionCreateParamsNonStreaming>) {
  const completion = await sdk.chat.completions.create({ model: 'gpt-test', messages: [system(1300), HI], ...params });
  return { prompt: completion.usage?.prompt_tokens, cached: completion.usage?.prompt_tokens_details?.cached_tokens };
}

describe('the fake OpenAI prompt cache, through the real SDK', () => {
  it('GIVEN a prompt under 1,024 tokens WHEN sent twice THEN nothing is cached', async () => {
    const sdk = await client();
    const messages = [system(1000), HI];

    await usageOf(sdk, { messages });
    const second = await usageOf(sdk, { messages });

    expect(second).toEqual({ prompt: promptTokens(...messages), cached: 0 });
  });

  it('GIVEN the same long prompt twice WHEN completed THEN the second reads its prefix in whole 128-token steps; the SDK parses cached_tokens', async () => {
    const sdk = await client();
    const prompt = promptTokens(system(1300), HI);

    const first = await usageOf(sdk, {});
    const second = await usageOf(sdk, {});

    expect(first).toEqual({ prompt, cached: 0 });
    expect(second).toEqual({ prompt, cached: 1280 });
    expect(fake!.usageTotals).toEqual({ calls: 2, input: 2 * prompt, cachedRead: 1280, cacheWrite: 0, output: 1 + 1 });
  });

  it('GIVEN two prompts sharing their first 1,225 tokens WHEN the second is sent THEN 1,152 are cached (rounded down to 128)', async () => {
    const sdk = await client();
    // `{"role":"system","content":"` is 28 characters: 28 + 4,872 = 4,900 shared characters, 1,225 tokens.
    const shared = 'a'.repeat(4872);

    await usageOf(sdk, { messages: [{ role: 'system', content: `${shared}${'b'.repeat(400)}` }, HI] });
    const second = await usageOf(sdk, { messages: [{ role: 'system', content: `${shared}${'c'.repeat(400)}` }, HI] });

    expect(second.cached).toBe(1152);
  });

  it('GIVEN a cached prompt WHEN only the last user message changes THEN the prefix before it is still read', async () => {
    const sdk = await client();
    await usageOf(sdk, { messages: [system(1280), HI] });

    const later = await usageOf(sdk, { messages: [system(1280), { role: 'user', content: 'Who do you suspect?' }] });

    expect(later.cached).toBe(1280);
  });

  it('GIVEN tools before a long prompt WHEN a tool schema changes THEN nothing is read', async () => {
    const sdk = await client();
    await usageOf(sdk, { tools: [voteTool(['Ada', 'Grace'])] });
    const same = await usageOf(sdk, { tools: [voteTool(['Ada', 'Grace'])] });

    const changed = await usageOf(sdk, { tools: [voteTool(['Ada', 'Edith'])] });

    expect(same.cached).toBeGreaterThanOrEqual(1024);
    expect(changed.cached).toBe(0);
  });

  it('GIVEN a response_format before a long prompt WHEN its schema changes THEN nothing is read', async () => {
    const sdk = await client();
    await usageOf(sdk, { response_format: decision(['Ada', 'Grace']) });
    const same = await usageOf(sdk, { response_format: decision(['Ada', 'Grace']) });

    const changed = await usageOf(sdk, { response_format: decision(['Ada', 'Edith']) });

    expect(same.cached).toBeGreaterThanOrEqual(1024);
    expect(changed.cached).toBe(0);
  });

  it('GIVEN prompt_cache_keys WHEN the same prompt comes under another key or none THEN only the same key reads it', async () => {
    const sdk = await client();
    await usageOf(sdk, { prompt_cache_key: 'seat-1' });

    const otherKey = await usageOf(sdk, { prompt_cache_key: 'seat-2' });
    const noKey = await usageOf(sdk, {});
    const sameKey = await usageOf(sdk, { prompt_cache_key: 'seat-1' });

    expect([otherKey.cached, noKey.cached, sameKey.cached]).toEqual([0, 0, 1280]);
  });

  it('GIVEN a cached prompt WHEN each read comes within 5 minutes of the last use THEN it keeps being read, and 5 minutes unused expire it', async () => {
    const sdk = await client();

    const cached = [];
    for (const minute of [0, 4, 8, 13]) {
      clock = minute * MINUTE;
      cached.push((await usageOf(sdk, {})).cached);
    }

    expect(cached).toEqual([0, 1280, 1280, 0]);
  });

  it('GIVEN three first calls sent together WHEN none has begun its answer THEN none reads; a call after the first answer began reads the prefix', async () => {
    const sdk = await client(1500);

    const together = await Promise.all([usageOf(sdk, {}), usageOf(sdk, {}), usageOf(sdk, {})]);
    clock = 1499;
    const beforeAnyAnswer = await usageOf(sdk, {});
    clock = 1500;
    const after = await usageOf(sdk, {});

    expect([...together, beforeAnyAnswer].map((usage) => usage.cached)).toEqual([0, 0, 0, 0]);
    expect(after.cached).toBe(1280);
  });

  it('GIVEN a cached prompt WHEN streamed with include_usage THEN the last chunk carries prompt_tokens and cached_tokens', async () => {
    const sdk = await client();
    await usageOf(sdk, {});

    const chunks = await sdk.chat.completions.create({
      model: 'gpt-test',
      messages: [system(1300), HI],
      stream: true,
      stream_options: { include_usage: true },
    });
    let usage;
    for await (const chunk of chunks) usage = chunk.usage ?? usage;

    expect(usage).toMatchObject({
      prompt_tokens: promptTokens(system(1300), HI),
      completion_tokens: 1,
      prompt_tokens_details: { cached_tokens: 1280 },
    });
  });
});
