import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../src/llm/anthropic-provider.ts';
import type { LlmProvider, LlmRequest } from '../../src/llm/types.ts';
import { startFakeAnthropic } from '../../scripts/fakes/llm/fake-anthropic.ts';
import { reply, type FakeLlmServer, type FakeReply } from '../../scripts/fakes/llm/fake-llm-server.ts';

const SCHEMA = { type: 'object', properties: { target: { type: 'string' } }, required: ['target'], additionalProperties: false };
const VOTE_TOOL = { name: 'vote', description: 'Vote for a player', inputSchema: SCHEMA };
const OUTPUT = { name: 'decision', description: 'Your decision', schema: SCHEMA };

const ASK: LlmRequest = {
  model: 'claude-test',
  system: { stable: 'You are Ada Lovelace, playing Mafia.', dynamic: 'It is day 2.' },
  messages: [{ role: 'user', content: 'Who do you suspect?' }],
};

let fake: FakeLlmServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function anthropic(script: readonly FakeReply[]): Promise<LlmProvider> {
  fake = await startFakeAnthropic(script);
  return createAnthropicProvider({ apiKey: 'test-key', baseURL: fake.baseURL, timeoutMs: 5_000, logLevel: 'off' });
}

describe('the Anthropic provider on the wire', () => {
  it('GIVEN a stable and a dynamic system part WHEN completed THEN the stable block carries cache_control ephemeral and the dynamic one follows unmarked', async () => {
    const provider = await anthropic([reply.text('ok')]);

    await provider.complete(ASK);

    expect(fake!.last.body['system']).toEqual([
      { type: 'text', text: 'You are Ada Lovelace, playing Mafia.', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'It is day 2.' },
    ]);
  });

  it('GIVEN a shared, a stable and a dynamic system part WHEN completed THEN both prefixes are cache breakpoints, the shared one first, and the dynamic part follows unmarked', async () => {
    const provider = await anthropic([reply.text('ok')]);

    await provider.complete({ ...ASK, system: { shared: 'The rules of the table.', ...ASK.system } });

    expect(fake!.last.body['system']).toEqual([
      { type: 'text', text: 'The rules of the table.', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'You are Ada Lovelace, playing Mafia.', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'It is day 2.' },
    ]);
  });

  it('GIVEN an earlier structured answer in the history WHEN re-asked THEN it goes back as a call of the output tool, answered at the start of the next user turn, which is the last breakpoint', async () => {
    const provider = await anthropic([reply.text('ok')]);

    await provider.complete({
      ...ASK,
      output: OUTPUT,
      messages: [
        { role: 'user', content: 'Vote.' },
        { role: 'assistant', content: '', answer: { target: 'Nobody' } },
        { role: 'user', content: 'Nobody is not an option.' },
      ],
    });

    expect(fake!.last.body['messages']).toEqual([
      { role: 'user', content: 'Vote.' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'answer_1', name: 'decision', input: { target: 'Nobody' } }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'answer_1', content: 'Received.' },
          { type: 'text', text: 'Nobody is not an option.', cache_control: { type: 'ephemeral' } },
        ],
      },
    ]);
  });

  it('GIVEN a turn that may be cut into blocks WHEN completed THEN it is sent as those blocks with the breakpoint where the turn asks', async () => {
    const provider = await anthropic([reply.text('ok')]);
    const head = '# Players\n1. Ada\n';
    const lines = '# Today\nline one\nline two\n';
    const content = `${head}${lines}# Your task: vote`;

    await provider.complete({
      ...ASK,
      messages: [{ role: 'user', content, cacheBreaks: [head.length, head.length + lines.length], cacheAt: head.length + lines.length }],
    });

    expect(fake!.last.body['messages']).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: head },
          { type: 'text', text: lines, cache_control: { type: 'ephemeral' } },
          { type: 'text', text: '# Your task: vote' },
        ],
      },
    ]);
  });

  it('GIVEN a request asking 1 hour for the shared and stable blocks WHEN completed THEN both breakpoints carry ttl 1h and the turn’s stays at 5 minutes', async () => {
    const provider = await anthropic([reply.text('ok')]);
    const head = '# Players\n1. Ada\n';

    const result = await provider.complete({
      ...ASK,
      system: { shared: 'The rules of the table.', ...ASK.system },
      messages: [{ role: 'user', content: `${head}# Your task: vote`, cacheBreaks: [head.length], cacheAt: head.length }],
      cacheLifetime: { shared: '1h', stable: '1h' },
    });

    expect(result.ok).toBe(true);
    expect(fake!.last.body['system']).toEqual([
      { type: 'text', text: 'The rules of the table.', cache_control: { type: 'ephemeral', ttl: '1h' } },
      { type: 'text', text: 'You are Ada Lovelace, playing Mafia.', cache_control: { type: 'ephemeral', ttl: '1h' } },
      { type: 'text', text: 'It is day 2.' },
    ]);
    expect(fake!.last.body['messages']).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: head, cache_control: { type: 'ephemeral' } },
          { type: 'text', text: '# Your task: vote' },
        ],
      },
    ]);
  });

  it('GIVEN a request asking 1 hour for its turn only WHEN completed THEN the system breakpoints before it live an hour too, since the API refuses a longer lifetime after a shorter one', async () => {
    const provider = await anthropic([reply.text('ok')]);
    const head = '# Players\n1. Ada\n';

    const result = await provider.complete({
      ...ASK,
      system: { shared: 'The rules of the table.', ...ASK.system },
      messages: [{ role: 'user', content: `${head}# Your task: vote`, cacheBreaks: [head.length], cacheAt: head.length }],
      cacheLifetime: { turn: '1h' },
    });

    expect(result.ok).toBe(true);
    const system = fake!.last.body['system'] as { cache_control?: unknown }[];
    expect(system.map((block) => block.cache_control)).toEqual([
      { type: 'ephemeral', ttl: '1h' },
      { type: 'ephemeral', ttl: '1h' },
      undefined,
    ]);
  });

  it('GIVEN an output asked WHEN the model writes its answer as fenced JSON text instead of the tool THEN the answer is still read', async () => {
    const provider = await anthropic([reply.text('Here it is:\n```json\n{"target": "Grace"}\n```')]);

    const result = await provider.complete({ ...ASK, output: OUTPUT });

    expect(result.ok && result.value.structured).toEqual({ target: 'Grace' });
  });

  it('GIVEN an output and other tools WHEN completed THEN an output tool with the output schema is added, the system says to finish with it, the choice stays auto', async () => {
    const provider = await anthropic([reply.text('ok')]);

    await provider.complete({ ...ASK, tools: [VOTE_TOOL], output: OUTPUT });

    expect(fake!.last.body['tools']).toEqual([
      { name: 'vote', description: 'Vote for a player', input_schema: SCHEMA },
      { name: 'decision', description: 'Your decision', input_schema: SCHEMA },
    ]);
    expect(fake!.last.body['tool_choice']).toEqual({ type: 'auto' });
    expect(fake!.last.system).toMatch(/It is day 2\.\n\nWhen you are ready .* calling the `decision` tool/);
    // The stable block is the same with or without an output, so the cache still hits.
    expect((fake!.last.body['system'] as unknown[])[0]).toEqual({
      type: 'text',
      text: 'You are Ada Lovelace, playing Mafia.',
      cache_control: { type: 'ephemeral' },
    });
    expect(fake!.last.outputName).toBe('decision');
  });

  it.each([
    { story: 'only the output tool', extra: { output: OUTPUT }, choice: { type: 'tool', name: 'decision' } },
    {
      story: 'tools forbidden but an output asked',
      extra: { tools: [VOTE_TOOL], toolChoice: 'none', output: OUTPUT },
      choice: { type: 'tool', name: 'decision' },
    },
    { story: 'tools forbidden and no output', extra: { tools: [VOTE_TOOL], toolChoice: 'none' }, choice: { type: 'none' } },
  ] as const)('GIVEN $story WHEN completed THEN tool_choice is $choice.type $choice.name', async ({ extra, choice }) => {
    const provider = await anthropic([reply.text('ok')]);

    await provider.complete({ ...ASK, ...extra });

    expect(fake!.last.body['tool_choice']).toEqual(choice);
  });

  it('GIVEN the model answers through the output tool beside a real call WHEN completed THEN the answer is `structured` and only the real call is a tool call', async () => {
    const provider = await anthropic([reply.tool('vote', { target: 'Grace' }, { structured: { target: 'Grace' } })]);

    const result = await provider.complete({ ...ASK, tools: [VOTE_TOOL], output: OUTPUT });

    expect(result.ok && result.value).toMatchObject({
      structured: { target: 'Grace' },
      toolCalls: [{ name: 'vote', input: { target: 'Grace' } }],
      stopReason: 'tool_use',
    });
  });

  it('GIVEN an output asked WHEN the model ends in plain text without the output tool THEN structured is undefined and the text kept', async () => {
    const provider = await anthropic([reply.text('I think it is Grace.')]);

    const result = await provider.complete({ ...ASK, tools: [VOTE_TOOL], output: OUTPUT });

    expect(result).toMatchObject({ ok: true, value: { text: 'I think it is Grace.', structured: undefined, stopReason: 'end_turn' } });
  });

  it('GIVEN tool calls and their results in the history WHEN completed THEN the results share one user message with is_error flags', async () => {
    const provider = await anthropic([reply.text('ok')]);

    await provider.complete({
      ...ASK,
      messages: [
        { role: 'user', content: 'Vote.' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [
            { id: 't1', name: 'vote', input: { target: 'Nobody' } },
            { id: 't2', name: 'vote', input: { target: 'Grace' } },
          ],
        },
        { role: 'tool', toolCallId: 't1', toolName: 'vote', content: 'Nobody is not playing.', isError: true },
        { role: 'tool', toolCallId: 't2', toolName: 'vote', content: 'Vote recorded.', isError: false },
        { role: 'assistant', content: '' },
        { role: 'user', content: 'Anything to add?' },
      ],
      tools: [VOTE_TOOL],
    });

    expect(fake!.last.body['messages']).toEqual([
      { role: 'user', content: 'Vote.' },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 't1', name: 'vote', input: { target: 'Nobody' } },
          { type: 'tool_use', id: 't2', name: 'vote', input: { target: 'Grace' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'Nobody is not playing.', is_error: true },
          { type: 'tool_result', tool_use_id: 't2', content: 'Vote recorded.', is_error: false },
        ],
      },
      // A continued conversation marks its last block as a cache breakpoint.
      { role: 'user', content: [{ type: 'text', text: 'Anything to add?', cache_control: { type: 'ephemeral' } }] },
    ]);
  });

  it('GIVEN no token limit and a temperature WHEN completed THEN max_tokens is the default and no temperature is sent (SDK 1.x has none)', async () => {
    const provider = await anthropic([reply.text('ok')]);

    await provider.complete({ ...ASK, temperature: 0.9 });

    expect(fake!.last.body['max_tokens']).toBe(1024);
    expect(fake!.last.body).not.toHaveProperty('temperature');
  });

  it('GIVEN the model stops at max_tokens WHEN completed THEN the stop reason is max_tokens', async () => {
    const provider = await anthropic([reply.text('I was about to say', { stop: 'max_tokens' })]);

    expect(await provider.complete(ASK)).toMatchObject({ ok: true, value: { stopReason: 'max_tokens' } });
  });

  it('GIVEN an output named like a tool WHEN completed THEN it is a bad_request and nothing is sent', async () => {
    const provider = await anthropic([]);

    const result = await provider.complete({ ...ASK, tools: [VOTE_TOOL], output: { name: 'vote', schema: SCHEMA } });

    expect(result).toMatchObject({ ok: false, error: { kind: 'bad_request' } });
    expect(fake!.requests).toEqual([]);
  });
});
