import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createOpenAiProvider } from '../../src/llm/openai-provider.ts';
import { jsonSchemaOf } from '../../src/llm/tool.ts';
import type { LlmProvider, LlmRequest, StreamDelta } from '../../src/llm/types.ts';
import { reply, type FakeLlmServer, type FakeReply } from '../../scripts/fakes/llm/fake-llm-server.ts';
import { startFakeOpenAi } from '../../scripts/fakes/llm/fake-openai.ts';
import { stringContaining } from '../support/matchers.ts';

const Decision = z.object({ target: z.string(), reason: z.string().nullable(), confidence: z.number().min(0).max(1) });

const ASK: LlmRequest = {
  model: 'gpt-test',
  system: { stable: 'You are Ada Lovelace, playing Mafia.', dynamic: 'It is day 2.' },
  messages: [{ role: 'user', content: 'Who do you suspect?' }],
};

let fake: FakeLlmServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function openAi(
  script: readonly FakeReply[],
  options: { tokenLimitField?: 'max_tokens' | 'max_completion_tokens'; promptCacheKey?: boolean } = {},
): Promise<LlmProvider> {
  fake = await startFakeOpenAi(script);
  return createOpenAiProvider({ apiKey: 'test-key', baseURL: fake.baseURL, timeoutMs: 5_000, logLevel: 'off', ...options });
}

describe('the OpenAI provider on the wire', () => {
  it('GIVEN a cache key and a shared system part WHEN completed THEN prompt_cache_key is sent (when enabled) and one system message holds shared, stable and dynamic parts in that order', async () => {
    const provider = await openAi([reply.text('ok'), reply.text('ok')], { promptCacheKey: true });

    await provider.complete({ ...ASK, system: { shared: 'The rules.', ...ASK.system }, cacheKey: 'dramatis:g1:s1' });

    expect(fake!.last.body['prompt_cache_key']).toBe('dramatis:g1:s1');
    expect(fake!.last.body['messages']).toEqual([
      { role: 'system', content: 'The rules.\n\nYou are Ada Lovelace, playing Mafia.\n\nIt is day 2.' },
      { role: 'user', content: 'Who do you suspect?' },
    ]);
    const plain = await openAi([reply.text('ok')]);
    await plain.complete({ ...ASK, cacheKey: 'dramatis:g1:s1' });
    // A custom base URL may be a server that refuses unknown fields: no key unless asked for.
    expect(fake!.last.body['prompt_cache_key']).toBeUndefined();
  });

  it('GIVEN an earlier structured answer WHEN re-asked THEN it goes back as the assistant’s JSON content, never as "null"', async () => {
    const provider = await openAi([reply.text('ok')]);

    await provider.complete({
      ...ASK,
      messages: [
        { role: 'user', content: 'Vote.' },
        { role: 'assistant', content: '', answer: { target: 'Nobody' } },
        { role: 'user', content: 'Again.' },
      ],
    });

    expect((fake!.last.body['messages'] as unknown[])[2]).toEqual({ role: 'assistant', content: '{"target":"Nobody"}' });
  });

  it('GIVEN a model that fences its JSON answer WHEN completed THEN the answer is read from inside the fence', async () => {
    const provider = await openAi([reply.text('```json\n{"target": "Grace", "reason": null, "confidence": 0.5}\n```')]);

    const result = await provider.complete({ ...ASK, output: { name: 'vote_decision', schema: jsonSchemaOf(Decision) } });

    expect(result.ok && result.value.structured).toEqual({ target: 'Grace', reason: null, confidence: 0.5 });
  });

  it('GIVEN a zod output schema WHEN completed THEN a strict json_schema response format is sent, every object closed and every field required', async () => {
    const provider = await openAi([reply.structured({ target: 'Grace', reason: null, confidence: 0.8 })]);

    const result = await provider.complete({
      ...ASK,
      output: { name: 'vote_decision', description: 'Your vote', schema: jsonSchemaOf(Decision) },
    });

    expect(result.ok && result.value.structured).toEqual({ target: 'Grace', reason: null, confidence: 0.8 });
    expect(fake!.last.body['response_format']).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'vote_decision',
        description: 'Your vote',
        strict: true,
        schema: {
          type: 'object',
          properties: {
            target: { type: 'string' },
            reason: { type: ['string', 'null'] },
            confidence: { type: 'number', minimum: 0, maximum: 1 },
          },
          required: ['target', 'reason', 'confidence'],
          additionalProperties: false,
        },
      },
    });
  });

  it('GIVEN an output schema with an .optional() field WHEN completed THEN it is a bad_request naming the field, and nothing is sent', async () => {
    const provider = await openAi([]);
    const schema = jsonSchemaOf(z.object({ target: z.string(), reason: z.string().optional() }));

    const result = await provider.complete({ ...ASK, output: { name: 'decision', schema } });

    expect(result).toEqual({ ok: false, error: { kind: 'bad_request', message: stringContaining('reason') } });
    expect(fake!.requests).toEqual([]);
  });

  it('GIVEN an answer that is not valid JSON WHEN an output was asked for THEN the call succeeds with structured undefined and the text kept', async () => {
    const provider = await openAi([reply.text('{"target": "Grace"')]);

    const result = await provider.complete({ ...ASK, output: { name: 'decision', schema: jsonSchemaOf(Decision) } });

    expect(result).toMatchObject({ ok: true, value: { text: '{"target": "Grace"', structured: undefined } });
  });

  it('GIVEN a stable and a dynamic system part WHEN completed THEN one system message comes first, stable part first', async () => {
    const provider = await openAi([reply.text('ok')]);

    await provider.complete(ASK);

    const messages = fake!.last.body['messages'];
    expect(messages).toEqual([
      { role: 'system', content: 'You are Ada Lovelace, playing Mafia.\n\nIt is day 2.' },
      { role: 'user', content: 'Who do you suspect?' },
    ]);
  });

  it('GIVEN a history of tool calls and results WHEN completed THEN they are sent as tool_calls and tool messages, errors said in the text', async () => {
    const provider = await openAi([reply.text('ok')]);

    await provider.complete({
      ...ASK,
      messages: [
        { role: 'user', content: 'Vote.' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'vote', input: { target: 'Nobody' } }] },
        { role: 'tool', toolCallId: 'c1', toolName: 'vote', content: 'Nobody is not playing.', isError: true },
      ],
    });

    expect((fake!.last.body['messages'] as unknown[]).slice(2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'vote', arguments: '{"target":"Nobody"}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'Error: Nobody is not playing.' },
    ]);
    expect(fake!.last.toolResults).toEqual([{ role: 'tool', toolCallId: 'c1', text: 'Error: Nobody is not playing.' }]);
  });

  it('GIVEN tools and toolChoice none, a token limit and a temperature WHEN completed THEN tool_choice, max_tokens and temperature are sent', async () => {
    const provider = await openAi([reply.text('ok')]);
    const tools = [{ name: 'vote', description: 'Vote', inputSchema: { type: 'object', properties: {} } }];

    await provider.complete({ ...ASK, tools, toolChoice: 'none', maxTokens: 300, temperature: 0.7 });

    expect(fake!.last.body).toMatchObject({ tool_choice: 'none', max_tokens: 300, temperature: 0.7 });
    expect(fake!.last.body).not.toHaveProperty('max_completion_tokens');
  });

  it('GIVEN the max_completion_tokens field chosen (newer OpenAI models) WHEN completed THEN the limit goes there', async () => {
    const provider = await openAi([reply.text('ok')], { tokenLimitField: 'max_completion_tokens' });

    await provider.complete({ ...ASK, maxTokens: 300 });

    expect(fake!.last.body).toMatchObject({ max_completion_tokens: 300 });
    expect(fake!.last.body).not.toHaveProperty('max_tokens');
  });

  it('GIVEN tool arguments that are not JSON WHEN completed THEN the call carries the raw text, for validation to refuse', async () => {
    const provider = await openAi([reply.tools([{ name: 'vote', rawArguments: '{"target": Grace}' }])]);

    const result = await provider.complete(ASK);

    expect(result.ok && result.value.toolCalls).toEqual([{ id: 'call_0_0', name: 'vote', input: '{"target": Grace}' }]);
  });

  it('GIVEN two tool calls streamed in fragments WHEN streamed THEN each is assembled whole, in order, with usage asked for', async () => {
    const provider = await openAi([
      reply.tools([
        { name: 'vote', input: { target: 'Grace Hopper' } },
        { name: 'whisper', input: { to: 'Alan', text: 'Trust me, it is Grace.' } },
      ]),
    ]);

    const deltas: StreamDelta[] = [];
    for await (const delta of provider.stream(ASK)) deltas.push(delta);

    expect(deltas.filter((delta) => delta.type === 'tool_call')).toEqual([
      { type: 'tool_call', call: { id: 'call_0_0', name: 'vote', input: { target: 'Grace Hopper' } } },
      { type: 'tool_call', call: { id: 'call_0_1', name: 'whisper', input: { to: 'Alan', text: 'Trust me, it is Grace.' } } },
    ]);
    expect(fake!.last.body['stream_options']).toEqual({ include_usage: true });
    const reported = fake!.usages[0]!;
    expect(deltas.at(-1)).toMatchObject({
      type: 'done',
      response: { usage: { inputTokens: reported.input, outputTokens: reported.output }, stopReason: 'tool_use' },
    });
  });
});
