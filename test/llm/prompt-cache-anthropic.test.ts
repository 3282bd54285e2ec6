import Anthropic from '@anthropic-ai/sdk';
import type { MessageCreateParamsNonStreaming, MessageParam, TextBlockParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../../scripts/fakes/llm/fake-anthropic.ts';
import { reply, type FakeLlmServer } from '../../scripts/fakes/llm/fake-llm-server.ts';
import { anyNumber, stringContaining } from '../support/matchers.ts';

/*
 * The fake's cache as Anthropic documents it, seen through the real SDK with breakpoints placed
 * by hand. Token figures follow the fakes' estimate: ceil(characters / 4) of the serialized
 * request (each block's JSON without cache_control; a message's role opens its first block).
 */

const MINUTE = 60_000;
const EPHEMERAL = { type: 'ephemeral' } as const;
const HI: MessageParam = { role: 'user', content: 'Hi' };
/** `"user""Hi"`: 10 characters after a prefix of whole tokens. */
const HI_TOKENS = 3;

/** A system block whose JSON, cache_control left out, is exactly `tokens` × 4 characters. */
function block(tokens: number, fill = 'a', marker: TextBlockParam['cache_control'] = EPHEMERAL): TextBlockParam {
  const text = fill.repeat(tokens * 4 - JSON.stringify({ type: 'text', text: '' }).length);
  return marker === null ? { type: 'text', text } : { type: 'text', text, cache_control: marker };
}

function voteTool(names: readonly string[]): Tool {
  return {
    name: 'vote',
    description: 'Vote for a player',
    input_schema: { type: 'object', properties: { target: { type: 'string', enum: [...names] } } },
  };
}

/** Tokens of a leading block: a quarter of its JSON's characters, rounded up. */
function tokensOf(value: unknown): number {
  return Math.ceil(JSON.stringify(value).length / 4);
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
async function client(firstTokenMs = 0): Promise<Anthropic> {
  const latency = () => ({ firstTokenMs, totalMs: firstTokenMs });
  fake = await startFakeAnthropic(() => reply.text('ok'), { now: () => clock, latency });
  return new Anthropic({ apiKey: 'test-key', baseURL: fake.baseURL, maxRetries: 0, logLevel: 'off' });
}

async function usageOf(sdk: Anthropic, params: Partial<MessageCreateParamsNonStreaming>) {
  const message = await sdk.messages.create({ model: 'claude-test', max_tokens: 64, messages: [HI], ...params });
  const { input_tokens, cache_read_input_tokens, cache_creation_input_tokens } = message.usage;
  return { input: input_tokens, read: cache_read_input_tokens, write: cache_creation_input_tokens };
}

describe('the fake Anthropic prompt cache, through the real SDK', () => {
  it('GIVEN a breakpoint after 1,023 tokens WHEN sent twice THEN nothing is written or read: the prefix is under the minimum', async () => {
    const sdk = await client();

    const first = await usageOf(sdk, { system: [block(1023)] });
    const second = await usageOf(sdk, { system: [block(1023)] });

    expect(first).toEqual({ input: 1023 + HI_TOKENS, read: 0, write: 0 });
    expect(second).toEqual(first);
  });

  it('GIVEN a breakpoint after 1,024 tokens WHEN sent twice THEN the first writes the prefix and the second reads it; the SDK parses both figures', async () => {
    const sdk = await client();

    const first = await sdk.messages.create({ model: 'claude-test', max_tokens: 64, system: [block(1024)], messages: [HI] });
    const second = await sdk.messages.create({ model: 'claude-test', max_tokens: 64, system: [block(1024)], messages: [HI] });

    expect(first.usage).toMatchObject({
      input_tokens: HI_TOKENS,
      cache_creation_input_tokens: 1024,
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 1024, ephemeral_1h_input_tokens: 0 },
      output_tokens: 1,
    });
    expect(second.usage).toMatchObject({ input_tokens: HI_TOKENS, cache_creation_input_tokens: 0, cache_read_input_tokens: 1024 });
    expect(fake!.usageTotals).toEqual({ calls: 2, input: 2 * (1024 + HI_TOKENS), cachedRead: 1024, cacheWrite: 1024, output: 2 });
  });

  it('GIVEN a cached prefix WHEN streamed THEN the final message carries the cache figures from message_start and message_delta', async () => {
    const sdk = await client();
    await usageOf(sdk, { system: [block(1200)] });

    const message = await sdk.messages
      .stream({ model: 'claude-test', max_tokens: 64, system: [block(1200)], messages: [HI] })
      .finalMessage();

    expect(message.usage).toMatchObject({
      input_tokens: HI_TOKENS,
      cache_read_input_tokens: 1200,
      cache_creation_input_tokens: 0,
      output_tokens: 1,
    });
  });

  it('GIVEN tools before a cached system WHEN a tool schema changes THEN nothing is read and the whole prefix is written again', async () => {
    const sdk = await client();
    const prefix = tokensOf(voteTool(['Ada', 'Grace'])) + 1200;

    const first = await usageOf(sdk, { tools: [voteTool(['Ada', 'Grace'])], system: [block(1200)] });
    const same = await usageOf(sdk, { tools: [voteTool(['Ada', 'Grace'])], system: [block(1200)] });
    const changed = await usageOf(sdk, { tools: [voteTool(['Ada', 'Edith'])], system: [block(1200)] });

    expect(first).toEqual({ input: HI_TOKENS, read: 0, write: prefix });
    expect(same).toEqual({ input: HI_TOKENS, read: prefix, write: 0 });
    expect(changed).toEqual({ input: HI_TOKENS, read: 0, write: prefix });
  });

  it('GIVEN a cached prefix WHEN only the messages after the breakpoint change THEN the prefix is still read', async () => {
    const sdk = await client();
    await usageOf(sdk, { system: [block(1200)] });

    const later = await usageOf(sdk, { system: [block(1200)], messages: [{ role: 'user', content: 'Who do you suspect, and why?' }] });

    // `"user"` and the quoted question: 6 + 30 characters.
    expect(later).toEqual({ input: 9, read: 1200, write: 0 });
  });

  it('GIVEN a breakpoint on the last tool WHEN only the system after it changes THEN the tools are read and nothing is written past them', async () => {
    const sdk = await client();
    const tool = { ...voteTool(['Ada', 'Grace']), description: 'd'.repeat(4400) };
    const tools = tokensOf(tool);

    await usageOf(sdk, { tools: [{ ...tool, cache_control: EPHEMERAL }], system: 'It is day 1.' });
    const later = await usageOf(sdk, { tools: [{ ...tool, cache_control: EPHEMERAL }], system: 'It is day 2.' });

    expect(tools).toBeGreaterThan(1024);
    expect(later).toMatchObject({ read: tools, write: 0 });
  });

  it('GIVEN two system breakpoints WHEN the second block changes THEN the shared first block is read and the second written', async () => {
    const sdk = await client();

    const first = await usageOf(sdk, { system: [block(1100), block(300, 'b')] });
    const second = await usageOf(sdk, { system: [block(1100), block(300, 'c')] });

    expect(first).toEqual({ input: HI_TOKENS, read: 0, write: 1400 });
    expect(second).toEqual({ input: HI_TOKENS, read: 1100, write: 300 });
  });

  it('GIVEN a prefix written at an earlier breakpoint WHEN a later request has only a breakpoint further on THEN the lookback reads it', async () => {
    const sdk = await client();
    await usageOf(sdk, { system: [block(1100)] });
    const turn = (text: string): MessageParam => ({ role: 'user', content: [{ type: 'text', text, cache_control: EPHEMERAL }] });
    const history: MessageParam[] = [HI, { role: 'assistant', content: 'Hello' }];

    const second = await usageOf(sdk, { system: [block(1100, 'a', null)], messages: [...history, turn('Go on')] });
    const third = await usageOf(sdk, {
      system: [block(1100, 'a', null)],
      messages: [
        ...history,
        { role: 'user', content: [{ type: 'text', text: 'Go on' }] },
        { role: 'assistant', content: 'Sure' },
        turn('More'),
      ],
    });

    // The second writes everything after the system block; the third reads up to where the second wrote.
    const through = (messages: MessageParam[]): number => Math.ceil((4400 + messages.reduce((n, m) => n + messageChars(m), 0)) / 4);
    const secondTotal = through([...history, turn('Go on')]);
    expect(second).toEqual({ input: 0, read: 1100, write: secondTotal - 1100 });
    expect(third).toEqual({ input: 0, read: secondTotal, write: anyNumber() });
  });

  it('GIVEN a breakpoint on a tool result WHEN the next round sends the same history and more THEN the history through that result is read', async () => {
    const sdk = await client();
    const call: MessageParam = {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { player: 'Grace' } }],
    };
    const result = (marked: boolean): MessageParam => ({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: 'Grace claims Doctor.', ...(marked && { cache_control: EPHEMERAL }) },
      ],
    });
    const first = await usageOf(sdk, { system: [block(1100, 'a', null)], messages: [HI, call, result(true)] });

    const next = await usageOf(sdk, {
      system: [block(1100, 'a', null)],
      messages: [
        HI,
        call,
        result(false),
        { role: 'assistant', content: 'Grace it is.' },
        { role: 'user', content: [{ type: 'text', text: 'Vote now.', cache_control: EPHEMERAL }] },
      ],
    });

    expect(first).toMatchObject({ input: 0, read: 0 });
    expect(next.read).toBe(first.write);
  });

  it.each([
    [20, 1100],
    [21, 0],
  ])(
    'GIVEN the only written prefix %i blocks before a breakpoint WHEN sent THEN it reads %i tokens (lookback of 20 boundaries)',
    async (blocks, read) => {
      const sdk = await client();
      await usageOf(sdk, { system: [block(1100)] });
      const content: TextBlockParam[] = Array.from({ length: blocks }, (_, i) => ({ type: 'text', text: `line ${i}` }));
      content[blocks - 1] = { ...content[blocks - 1]!, cache_control: EPHEMERAL };

      const later = await usageOf(sdk, { system: [block(1100, 'a', null)], messages: [{ role: 'user', content }] });

      expect(later.read).toBe(read);
    },
  );

  it('GIVEN a written prefix WHEN each read comes within 5 minutes of the last use THEN it keeps being read, and 5 minutes unused expire it', async () => {
    const sdk = await client();
    const ask = () => usageOf(sdk, { system: [block(1200)] });
    const written = { input: HI_TOKENS, read: 0, write: 1200 };
    const read = { input: HI_TOKENS, read: 1200, write: 0 };

    expect(await ask()).toEqual(written);
    clock = 4 * MINUTE;
    expect(await ask()).toEqual(read);
    clock = 8 * MINUTE;
    expect(await ask()).toEqual(read);
    clock = 13 * MINUTE;
    expect(await ask()).toEqual(written);
  });

  it('GIVEN three first calls sent together WHEN none has begun its answer THEN all three write the prefix; a call after the first answer began reads it', async () => {
    const sdk = await client(2000);
    const ask = () => usageOf(sdk, { system: [block(1200)] });
    const written = { input: HI_TOKENS, read: 0, write: 1200 };

    const together = await Promise.all([ask(), ask(), ask()]);
    clock = 1999;
    const beforeAnyAnswer = await ask();
    clock = 2000;
    const after = await ask();

    expect(together).toEqual([written, written, written]);
    expect(beforeAnyAnswer).toEqual(written);
    expect(after).toEqual({ input: HI_TOKENS, read: 1200, write: 0 });
  });

  it('GIVEN a prefix written by an answer that began 2 s after its request WHEN read just before 5 minutes from that answer THEN it is found, and that read renews it for exactly 5 minutes', async () => {
    const sdk = await client(2000);
    const ask = () => usageOf(sdk, { system: [block(1200)] });
    await ask();

    clock = 2000 + 5 * MINUTE - 1;
    const justInTime = await ask();
    clock += 5 * MINUTE;
    const tooLate = await ask();

    expect(justInTime.read).toBe(1200);
    expect(tooLate).toEqual({ input: HI_TOKENS, read: 0, write: 1200 });
  });

  it('GIVEN a breakpoint with ttl 1h WHEN read 30 minutes later THEN it is still cached, and the write was reported as one-hour', async () => {
    const sdk = await client();
    const system = [block(1200, 'a', { type: 'ephemeral', ttl: '1h' })];

    const first = await sdk.messages.create({ model: 'claude-test', max_tokens: 64, system, messages: [HI] });
    clock = 30 * MINUTE;
    const later = await usageOf(sdk, { system });

    expect(first.usage.cache_creation).toEqual({ ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 1200 });
    expect(later).toEqual({ input: HI_TOKENS, read: 1200, write: 0 });
  });

  it('GIVEN a breakpoint with ttl 1h WHEN each read comes within the hour THEN it keeps being read, and an hour unused expires it', async () => {
    const sdk = await client();
    const ask = () => usageOf(sdk, { system: [block(1200, 'a', { type: 'ephemeral', ttl: '1h' })] });

    const reads = [];
    for (const minute of [0, 59, 118, 179]) {
      clock = minute * MINUTE;
      reads.push((await ask()).read);
    }

    expect(reads).toEqual([0, 1200, 1200, 0]);
  });

  it('GIVEN a 1h breakpoint after a 5-minute one WHEN sent THEN it is refused with 400: longer lifetimes must come first', async () => {
    const sdk = await client();

    const sent = usageOf(sdk, { system: [block(1100), block(300, 'b', { type: 'ephemeral', ttl: '1h' })] });

    await expect(sent).rejects.toMatchObject({ status: 400, message: stringContaining("ttl '1h' must come before") });
  });

  it.each([
    ['claude-haiku-4-5', 4095, 0],
    ['claude-haiku-4-5', 4096, 4096],
    ['claude-sonnet-4-5', 1024, 1024],
  ])(
    'GIVEN %s, whose cache minimum is in the model table, WHEN a %i-token prefix is sent twice THEN the second reads %i tokens',
    async (model, tokens, read) => {
      const sdk = await client();

      await usageOf(sdk, { model, system: [block(tokens)] });
      const second = await usageOf(sdk, { model, system: [block(tokens)] });

      expect(second.read).toBe(read);
    },
  );

  it('GIVEN top-level cache_control (automatic caching) WHEN sent twice THEN the prefix through the last block is written, then read', async () => {
    const sdk = await client();
    const total = 1200 + HI_TOKENS;

    const first = await usageOf(sdk, { system: [block(1200, 'a', null)], cache_control: EPHEMERAL });
    const second = await usageOf(sdk, { system: [block(1200, 'a', null)], cache_control: EPHEMERAL });

    expect(first).toEqual({ input: 0, read: 0, write: total });
    expect(second).toEqual({ input: 0, read: total, write: 0 });
  });

  it('GIVEN the same prefix WHEN sent to another model THEN nothing is read: the cache is per model', async () => {
    const sdk = await client();
    await usageOf(sdk, { system: [block(1200)] });

    expect(await usageOf(sdk, { system: [block(1200)], model: 'claude-other' })).toEqual({ input: HI_TOKENS, read: 0, write: 1200 });
  });

  it('GIVEN a Claude 5.5 model, whose tokenizer counts 30 % more tokens WHEN the same prefix is sent twice THEN it is written, then read, at 1.3 times the older count', async () => {
    const sdk = await client();
    const prefix = Math.ceil((1200 * 4 * 1.3) / 4);
    const whole = Math.ceil(((1200 * 4 + messageChars(HI)) * 1.3) / 4);

    const first = await usageOf(sdk, { system: [block(1200)], model: 'claude-sonnet-5-5' });
    const second = await usageOf(sdk, { system: [block(1200)], model: 'claude-sonnet-5-5' });

    expect(first).toEqual({ input: whole - prefix, read: 0, write: prefix });
    expect(second).toEqual({ input: whole - prefix, read: prefix, write: 0 });
  });

  it('GIVEN five cache_control markers WHEN sent THEN the request is refused with 400, as the API refuses more than four', async () => {
    const sdk = await client();

    const sent = usageOf(sdk, { system: [block(10), block(10), block(10), block(10), block(10)] });

    await expect(sent).rejects.toMatchObject({ status: 400, message: stringContaining('A maximum of 4 blocks with cache_control') });
  });
});

/** The characters a message adds under the fake's serialization: its role, then each block's JSON. */
function messageChars(message: MessageParam): number {
  const role = JSON.stringify(message.role).length;
  if (typeof message.content === 'string') return role + JSON.stringify(message.content).length;
  return role + message.content.reduce((n, part) => n + JSON.stringify({ ...part, cache_control: undefined }).length, 0);
}
