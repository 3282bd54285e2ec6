import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../src/llm/anthropic-provider.ts';
import { toMessageParams } from '../../src/llm/anthropic-request.ts';
import { createOpenAiProvider } from '../../src/llm/openai-provider.ts';
import { toChatParams } from '../../src/llm/openai-request.ts';
import { LEGACY_CONTRACT } from '../../src/llm/request-contract.ts';
import type { LlmMessage, LlmProvider, LlmRequest, StreamDelta } from '../../src/llm/types.ts';
import { startFakeAnthropic } from '../../scripts/fakes/llm/fake-anthropic.ts';
import { reply, type FakeLlmServer, type FakeReply } from '../../scripts/fakes/llm/fake-llm-server.ts';
import { startFakeOpenAi } from '../../scripts/fakes/llm/fake-openai.ts';
import { estimateTokens } from '../../scripts/fakes/llm/fake-usage.ts';

const SCHEMA = {
  type: 'object',
  properties: { target: { type: 'string' }, urgency: { type: 'integer', minimum: 0, maximum: 4 } },
  required: ['target', 'urgency'],
  additionalProperties: false,
};
const READ_TRANSCRIPT = { name: 'read_transcript', description: 'A day’s transcript', inputSchema: { type: 'object', properties: {} } };
const DECISION: Omit<LlmRequest, 'model'> = {
  system: { stable: 'You are Ada Lovelace, playing Mafia.' },
  messages: [{ role: 'user', content: 'Vote: Grace or Edith?' }],
  tools: [READ_TRANSCRIPT],
  output: { name: 'decision', schema: SCHEMA },
  maxTokens: 700,
  thinking: false,
  effort: 'low',
};
const ANSWER = { target: 'Grace', urgency: 2 };

let fake: FakeLlmServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function anthropic(script: readonly FakeReply[]): Promise<LlmProvider> {
  fake = await startFakeAnthropic(script);
  return createAnthropicProvider({ apiKey: 'test-key', baseURL: fake.baseURL, timeoutMs: 5_000, maxRetries: 0, logLevel: 'off' });
}

/** The fake as OpenAI itself, as the bot talks to api.openai.com. */
async function openAi(script: readonly FakeReply[]): Promise<LlmProvider> {
  fake = await startFakeOpenAi(script);
  return createOpenAiProvider({
    apiKey: 'test-key',
    baseURL: fake.baseURL,
    timeoutMs: 5_000,
    maxRetries: 0,
    logLevel: 'off',
    tokenLimitField: 'max_completion_tokens',
    promptCacheKey: true,
  });
}

function ok<T>(result: { ok: true; value: T } | { ok: false; error: { message: string } }): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

/** A decision with one read_transcript round, as the tool loop runs it, then a re-ask of its answer. */
async function decideWithToolRoundAndReask(provider: LlmProvider, model: string): Promise<LlmMessage[]> {
  const first = ok(await provider.complete({ ...DECISION, model }));
  expect(first.toolCalls.map((call) => call.name)).toEqual(['read_transcript']);
  const afterTools: LlmMessage[] = [
    ...DECISION.messages,
    { role: 'assistant', content: first.text, toolCalls: first.toolCalls, ...(first.verbatim && { verbatim: first.verbatim }) },
    { role: 'tool', toolCallId: first.toolCalls[0]!.id, toolName: 'read_transcript', content: 'Nothing was said.', isError: false },
  ];
  const answer = ok(await provider.complete({ ...DECISION, model, messages: afterTools }));
  expect(answer.structured).toEqual({ ...ANSWER, target: 'Nobody' });
  const reask: LlmMessage[] = [
    ...afterTools,
    { role: 'assistant', content: '', answer: answer.structured, ...(answer.verbatim && { verbatim: answer.verbatim }) },
    { role: 'user', content: 'Your answer was not accepted: Nobody is not one of your options. Answer again, all fields.' },
  ];
  expect(ok(await provider.complete({ ...DECISION, model, messages: reask })).structured).toEqual(ANSWER);
  return reask;
}

const TOOL_ROUND_THEN_REASK = [
  reply.tool('read_transcript', {}),
  reply.structured({ ...ANSWER, target: 'Nobody' }),
  reply.structured(ANSWER),
] as const;

describe('Claude Sonnet 5.5 through the real SDK against the Anthropic fake', () => {
  it('GIVEN a decision WHEN it reads the transcript, answers and is re-asked THEN every call is taken: JSON through output_config.format, thinking off up front, and the tool round sent back with its thinking block', async () => {
    const provider = await anthropic(TOOL_ROUND_THEN_REASK);

    await decideWithToolRoundAndReask(provider, 'claude-sonnet-5-5');

    const [first, continued, reasked] = fake!.requests;
    expect(first!.body).toMatchObject({
      thinking: { type: 'between_tools' },
      output_config: { effort: 'low' },
      tool_choice: { type: 'auto' },
    });
    expect(first!.tools).toEqual(['read_transcript']);
    // Under between_tools the model wrote a progress note before its call: it goes back first, signed.
    const assistant = (continued!.body['messages'] as { content: { type: string }[] }[])[1]!;
    expect(assistant.content.map((block) => block.type)).toEqual(['thinking', 'tool_use']);
    expect(reasked!.transcript.at(-2)).toMatchObject({ role: 'assistant', text: JSON.stringify({ ...ANSWER, target: 'Nobody' }) });
  });

  it('GIVEN Opus 5.5, which always thinks WHEN re-asked THEN the rejected answer goes back with its thinking block as it came', async () => {
    const provider = await anthropic(TOOL_ROUND_THEN_REASK);

    await decideWithToolRoundAndReask(provider, 'claude-opus-5-5');

    const messages = fake!.last.body['messages'] as { role: string; content: { type: string }[] }[];
    expect(messages.at(-2)!.content.map((block) => block.type)).toEqual(['thinking', 'text']);
    expect(fake!.last.body).not.toHaveProperty('thinking');
  });

  it('GIVEN the same decisions built the old way (the output tool forced when no other tool may be called) WHEN sent THEN the fake refuses them as the API does', async () => {
    fake = await startFakeAnthropic(() => reply.structured(ANSWER));
    const client = new Anthropic({ apiKey: 'test-key', baseURL: fake.baseURL, maxRetries: 0 });
    const old = (request: Partial<LlmRequest>) =>
      ok(toMessageParams({ ...DECISION, model: 'claude-sonnet-5-5', ...request }, LEGACY_CONTRACT));

    for (const params of [old({ tools: [] }), old({ toolChoice: 'none' })]) {
      expect(params.tool_choice).toEqual({ type: 'tool', name: 'decision' });
      await expect(client.messages.create(params)).rejects.toThrow(
        /^400 .*invalid_request_error.*tool_choice: type .*are not supported for this model/,
      );
    }
  });

  it('GIVEN a tool round whose thinking block was dropped, or altered WHEN the loop goes on THEN the fake refuses it', async () => {
    const provider = await anthropic([reply.tool('read_transcript', {})]);
    const first = ok(await provider.complete({ ...DECISION, model: 'claude-sonnet-5-5' }));
    const call = first.toolCalls[0]!;
    const result: LlmMessage = { role: 'tool', toolCallId: call.id, toolName: call.name, content: 'Nothing was said.', isError: false };
    const goOn = (assistant: LlmMessage) =>
      provider.complete({ ...DECISION, model: 'claude-sonnet-5-5', messages: [...DECISION.messages, assistant, result] });

    const dropped = await goOn({ role: 'assistant', content: '', toolCalls: first.toolCalls });
    const content = first.verbatim!.content.map((block) => ({ ...(block as object), thinking: 'I changed my mind.' }));
    const altered = await goOn({ role: 'assistant', content: '', toolCalls: first.toolCalls, verbatim: { ...first.verbatim!, content } });

    expect(dropped).toMatchObject({ ok: false, error: { kind: 'bad_request', status: 400 } });
    expect(!dropped.ok && dropped.error.message).toMatch(/must start with a thinking block/);
    expect(!altered.ok && altered.error.message).toMatch(/Invalid `signature` in `thinking` block/);
  });

  it('GIVEN what Sonnet 5.5 refuses (thinking disabled or budgeted, sampling, bounds in a format schema) WHEN sent THEN each is a 400 invalid_request_error', async () => {
    fake = await startFakeAnthropic(() => reply.text('ok'));
    const client = new Anthropic({ apiKey: 'test-key', baseURL: fake.baseURL, maxRetries: 0 });
    const base = { model: 'claude-sonnet-5-5', max_tokens: 100, messages: [{ role: 'user' as const, content: 'Hi' }] };
    const refused = async (extra: Record<string, unknown>) => {
      const error = await client.messages.create({ ...base, ...extra }).catch((e: unknown) => e);
      return error instanceof Anthropic.APIError ? `${error.status} ${JSON.stringify(error.error)}` : 'accepted';
    };

    expect(await refused({ thinking: { type: 'disabled' } })).toMatch(/400 .*invalid_request_error.*between_tools/);
    expect(await refused({ thinking: { type: 'enabled', budget_tokens: 2048 } })).toMatch(/400 .*thinking.type.enabled/);
    expect(await refused({ thinking: { type: 'between_tools' }, output_config: { effort: 'max' } })).toMatch(/400 .*low, medium or high/);
    expect(await refused({ temperature: 0.5 })).toMatch(/400 .*`temperature` is deprecated/);
    expect(await refused({ output_config: { format: { type: 'json_schema', schema: SCHEMA } } })).toMatch(
      /400 .*'minimum' is not supported/,
    );
    expect(await refused({ thinking: { type: 'between_tools' }, output_config: { effort: 'low' } })).toBe('accepted');
  });

  it('GIVEN thinking left to the model at each effort WHEN it answers THEN usage reports its thinking tokens inside the output, more at higher effort', async () => {
    const text = 'Grace has been quiet all day and voted late twice.';
    const provider = await anthropic([reply.text(text), reply.text(text), reply.text(text)]);
    const ask = (effort?: 'low' | 'high') =>
      provider.complete({ model: 'claude-sonnet-5-5', ...DECISION, tools: [], output: undefined, thinking: undefined, effort });

    const [low, high, own] = [ok(await ask('low')), ok(await ask('high')), ok(await ask())];

    // Sonnet 5.5's tokenizer counts 30 % more tokens than the older ones (the model table's tokenRatio).
    const answer = estimateTokens(text, 1.3);
    expect(low.usage).toMatchObject({ outputTokens: answer + Math.ceil(answer / 2), reasoningOutputTokens: Math.ceil(answer / 2) });
    expect(high.usage).toMatchObject({ outputTokens: answer * 3, reasoningOutputTokens: answer * 2 });
    // No effort sent: Sonnet 5.5's own, high.
    expect(own.usage.reasoningOutputTokens).toBe(answer * 2);
    expect(low.verbatim?.content[0]).toMatchObject({ type: 'thinking' });
  });

  it('GIVEN a streamed reply that thought before its tool call WHEN streamed THEN the response keeps the signed thinking block for the next round', async () => {
    const provider = await anthropic([reply.tool('read_transcript', {}, { text: 'Let me look.' })]);
    const deltas: StreamDelta[] = [];
    for await (const delta of provider.stream({ ...DECISION, model: 'claude-sonnet-5-5', output: undefined })) deltas.push(delta);

    const done = deltas.at(-1);
    expect(done?.type).toBe('done');
    const content = done?.type === 'done' ? done.response.verbatim?.content : undefined;
    expect(content?.map((block) => (block as { type: string }).type)).toEqual(['thinking', 'text', 'tool_use']);
    expect((content?.[0] as { signature: string }).signature).not.toBe('');
  });
});

describe('GPT-6 Luna through the real SDK against the OpenAI fake', () => {
  it('GIVEN a decision WHEN it reads the transcript, answers and is re-asked THEN every call is taken with reasoning_effort none beside the tools', async () => {
    const provider = await openAi(TOOL_ROUND_THEN_REASK);

    await decideWithToolRoundAndReask(provider, 'gpt-6-luna');

    expect(fake!.requests).toHaveLength(3);
    for (const request of fake!.requests) {
      expect(request.body).toMatchObject({ reasoning_effort: 'none', tool_choice: 'auto', max_completion_tokens: 700 });
      expect(request.outputName).toBe('decision');
    }
    expect(fake!.usages.every((usage) => usage.thinking === 0)).toBe(true);
  });

  it('GIVEN the same decision built the old way (tools, no reasoning_effort) WHEN sent THEN the fake refuses it as the API does, naming the parameter', async () => {
    fake = await startFakeOpenAi([reply.structured(ANSWER)]);
    const client = new OpenAI({ apiKey: 'test-key', baseURL: fake.baseURL, maxRetries: 0 });
    const old = ok(
      toChatParams(
        { ...DECISION, model: 'gpt-6-luna' },
        { tokenLimitField: 'max_completion_tokens', promptCacheKey: true },
        LEGACY_CONTRACT,
      ),
    );

    const error = await client.chat.completions.create({ ...old, stream: false }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, param: 'reasoning_effort', type: 'invalid_request_error' });
    expect(String(error)).toMatch(/Function tools with reasoning_effort are not supported for gpt-6-luna in \/v1\/chat\/completions/);
  });

  it('GIVEN GPT-6.1 Sol, which takes no effort none WHEN a decision with tools is asked THEN it is answered without tools instead of refused', async () => {
    const provider = await openAi([reply.structured(ANSWER)]);

    const answer = ok(await provider.complete({ ...DECISION, model: 'gpt-6.1-sol' }));

    expect(answer.structured).toEqual(ANSWER);
    expect(fake!.last.tools).toEqual([]);
    expect(fake!.last.body['reasoning_effort']).toBe('low');
  });

  it('GIVEN a call without tools at an effort WHEN answered THEN usage reports its reasoning tokens inside the output by that effort', async () => {
    const text = 'A tense day: Grace pushed Edith, Ada defended her.';
    const provider = await openAi([reply.text(text), reply.text(text)]);
    const ask = (effort: 'low' | 'high') =>
      provider.complete({ model: 'gpt-6-luna', ...DECISION, tools: [], output: undefined, thinking: undefined, effort });

    const [low, high] = [ok(await ask('low')), ok(await ask('high'))];

    const answer = estimateTokens(text);
    expect(low.usage).toMatchObject({ outputTokens: answer + Math.ceil(answer / 2), reasoningOutputTokens: Math.ceil(answer / 2) });
    expect(high.usage).toMatchObject({ outputTokens: answer * 3, reasoningOutputTokens: answer * 2 });
    expect(fake!.requests.map((r) => r.body['max_completion_tokens'])).toEqual([700 + 1024, 700 + 4096]);
  });
});

describe('a self-hosted OpenAI-compatible server', () => {
  it('GIVEN a model the contracts do not know on a custom base URL WHEN a decision with a tool round runs THEN it gets today’s request: max_tokens, no reasoning_effort, no prompt_cache_key', async () => {
    fake = await startFakeOpenAi([reply.tool('read_transcript', {}), reply.structured(ANSWER)]);
    const provider = createOpenAiProvider({ baseURL: fake.baseURL, timeoutMs: 5_000, maxRetries: 0, logLevel: 'off' });
    const model = 'llama-3.1-8b-instruct';

    const first = ok(await provider.complete({ ...DECISION, model, cacheKey: 'dramatis:g1' }));
    const call = first.toolCalls[0]!;
    await provider.complete({
      ...DECISION,
      model,
      messages: [
        ...DECISION.messages,
        { role: 'assistant', content: '', toolCalls: first.toolCalls },
        { role: 'tool', toolCallId: call.id, toolName: call.name, content: 'Nothing was said.', isError: false },
      ],
    });

    for (const request of fake.requests) {
      expect(Object.keys(request.body).sort()).toEqual([
        'max_tokens',
        'messages',
        'model',
        'response_format',
        'stream',
        'tool_choice',
        'tools',
      ]);
      expect(request.body['max_tokens']).toBe(700);
    }
  });
});
