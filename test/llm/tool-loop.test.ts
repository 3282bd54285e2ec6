import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, type Tool } from '../../src/llm/tool.ts';
import { metered, type CallRecord } from '../../src/llm/metered.ts';
import { runToolLoop, toolLoop, type Conversation } from '../../src/llm/tool-loop.ts';
import type { LlmRequest, ToolCall } from '../../src/llm/types.ts';
import { ok } from '../../src/result.ts';
import { reply, type FakeLlmServer, type FakeRequest, type FakeTurn } from '../../scripts/fakes/llm/fake-llm-server.ts';
import { PROVIDER_NAMES, startFakeProvider } from '../../scripts/fakes/llm/fake-providers.ts';
import { objectContaining } from '../support/matchers.ts';

interface Table {
  readonly players: readonly string[];
  readonly votes: Map<string, string>;
}

const lookup = defineTool<{ player: string }, Table>({
  name: 'lookup',
  description: 'What is known about a player.',
  input: z.object({ player: z.string() }),
  run: ({ player }, liveGame) =>
    liveGame.players.includes(player) ? `${player} is alive and claims Doctor.` : `${player} is not playing.`,
});

const vote = defineTool<{ target: string }, Table>({
  name: 'vote',
  description: 'Vote to lynch a player.',
  input: z.object({ target: z.string().min(1) }),
  run: ({ target }, liveGame) => {
    if (!liveGame.players.includes(target)) throw new Error(`${target} is not at the table.`);
    liveGame.votes.set('me', target);
    return `Your vote for ${target} is recorded.`;
  },
});

const TOOLS: Tool<unknown, Table>[] = [lookup, vote];

const ASK: Omit<LlmRequest, 'tools'> = {
  model: 'test-model',
  system: { stable: 'You are Ada Lovelace, playing Mafia.' },
  messages: [{ role: 'user', content: 'Day 2. Vote.' }],
};

function table(): Table {
  return { players: ['Grace', 'Alan', 'Ada'], votes: new Map() };
}

/** Whether a tool result reached the model marked as an error: Anthropic has a flag, OpenAI only the text. */
function markedAsError(result: FakeTurn): boolean {
  return result.isError === true || result.text.startsWith('Error: ');
}

/** Resolves once `n` callers are waiting in it together; rejects if they arrive one at a time. */
function barrier(n: number, timeoutMs = 2_000): () => Promise<void> {
  let waiting = 0;
  let release = (): void => {};
  const together = new Promise<void>((resolve) => (release = resolve));
  return async () => {
    waiting += 1;
    if (waiting === n) release();
    let timer: NodeJS.Timeout | undefined;
    const alone = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the calls ran one at a time')), timeoutMs);
    });
    try {
      await Promise.race([together, alone]);
    } finally {
      clearTimeout(timer);
    }
  };
}

describe.each(PROVIDER_NAMES)('runToolLoop over the %s provider', (name) => {
  let fake: FakeLlmServer | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });
  async function start(options: Parameters<typeof startFakeProvider>[1] = {}) {
    const started = await startFakeProvider(name, options);
    fake = started.fake;
    return started.provider;
  }

  it('GIVEN a model that looks up, then votes, then speaks WHEN looped THEN each round sees the previous results and the answer ends it', async () => {
    const provider = await start({
      script: (request: FakeRequest) => {
        const last = request.toolResults.at(-1)?.text ?? '';
        if (request.index === 0) return reply.tool('lookup', { player: 'Grace' });
        if (last.includes('claims Doctor')) return reply.tool('vote', { target: 'Grace' }, { text: 'A fake Doctor. ' });
        if (last.includes('recorded')) return reply.text('Grace, your claim does not hold.');
        return reply.status(418, `unexpected request: ${last}`);
      },
    });
    const state = table();
    const records: CallRecord[] = [];

    const result = await runToolLoop({
      provider: metered(provider, { record: (record) => void records.push(record) }),
      request: ASK,
      tools: TOOLS,
      context: state,
    });

    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.response.text).toBe('Grace, your claim does not hold.');
    expect(result.value.rounds).toBe(2);
    expect(state.votes.get('me')).toBe('Grace');
    expect(fake!.requests).toHaveLength(3);
    expect(fake!.requests[2]!.transcript.map((turn) => turn.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
    expect(result.value.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
    expect(records).toHaveLength(3);
    expect(records[0]).toMatchObject({ provider: name, model: 'test-model', ok: true, usage: { outputTokens: 5 } });
    expect(records.every((record) => record.latencyMs > 0)).toBe(true);
    expect(fake!.requests[0]!.tools).toEqual(['lookup', 'vote']);
  });

  it('GIVEN two tool calls in one response WHEN looped THEN they run at the same time', async () => {
    const meet = barrier(2);
    const slowLookup = defineTool<{ player: string }, Table>({
      ...lookup,
      run: async (input, context) => {
        await meet();
        return lookup.run(input, context);
      },
    });
    const provider = await start({
      script: [
        reply.tools([
          { name: 'lookup', input: { player: 'Grace' } },
          { name: 'lookup', input: { player: 'Alan' } },
        ]),
        reply.text('Both look fine.'),
      ],
    });

    const result = await runToolLoop({ provider, request: ASK, tools: [slowLookup, vote], context: table() });

    expect(result.ok).toBe(true);
    expect(fake!.requests[1]!.toolResults.map((r) => [markedAsError(r), r.text])).toEqual([
      [false, 'Grace is alive and claims Doctor.'],
      [false, 'Alan is alive and claims Doctor.'],
    ]);
  });

  it('GIVEN two tool calls run one by one WHEN the caller stops after the first THEN the second is handed back unrun and the loop ends aborted', async () => {
    const provider = await start({
      script: [
        reply.tools([
          { name: 'vote', input: { target: 'Grace' } },
          { name: 'vote', input: { target: 'Alan' } },
        ]),
      ],
    });
    const stop = new AbortController();
    const results: string[] = [];
    const unrun: ToolCall[] = [];
    const conversation: Conversation<never> = {
      next: () => Promise.resolve(ok(ASK)),
      answered: () => Promise.resolve(ok(undefined)),
      resulted(result) {
        results.push(result.content);
        stop.abort();
        return Promise.resolve();
      },
    };
    const state = table();

    const end = await toolLoop({
      provider,
      conversation,
      tools: TOOLS,
      context: state,
      signal: stop.signal,
      oneByOne: { notRun: (calls) => Promise.resolve(void unrun.push(...calls)) },
    });

    expect(end).toEqual({ ok: false, error: objectContaining({ kind: 'aborted' }) });
    expect(results).toEqual(['Your vote for Grace is recorded.']);
    expect(unrun.map((call) => call.input)).toEqual([{ target: 'Alan' }]);
    expect(state.votes.get('me')).toBe('Grace');
    expect(fake!.requests).toHaveLength(1);
  });

  it('GIVEN a throwing tool, refused input and an unknown tool WHEN looped THEN the model gets three readable results marked as errors', async () => {
    const provider = await start({
      script: [
        reply.tools([
          { name: 'vote', input: { target: 'Nobody' } },
          { name: 'vote', input: { target: 42 } },
          { name: 'poison', input: { target: 'Grace' } },
        ]),
        reply.text('Sorry.'),
      ],
    });

    const result = await runToolLoop({ provider, request: ASK, tools: TOOLS, context: table() });

    expect(result.ok).toBe(true);
    const results = fake!.requests[1]!.toolResults;
    expect(results).toHaveLength(3);
    expect(results.every(markedAsError)).toBe(true);
    expect(results[0]!.text).toContain('Nobody is not at the table.');
    expect(results[1]!.text).toMatch(/input of vote was refused[\s\S]*target/);
    expect(results[2]!.text).toContain('There is no tool named "poison". The tools are: lookup, vote.');
    expect(result.ok && result.value.messages.filter((m) => m.role === 'tool').every((m) => m.isError)).toBe(true);
  });

  it('GIVEN a model that never stops calling tools WHEN the cap of 2 rounds is reached THEN it is asked once more with tools forbidden, and that answer ends it', async () => {
    const provider = await start({
      script: (request) =>
        request.body['tool_choice'] === 'none' || (request.body['tool_choice'] as { type?: string } | undefined)?.type === 'none'
          ? reply.text('Fine, I will decide without more lookups.')
          : reply.tool('lookup', { player: 'Grace' }),
    });

    const result = await runToolLoop({ provider, request: ASK, tools: TOOLS, context: table(), maxToolRounds: 2 });

    expect(result).toMatchObject({ ok: true, value: { rounds: 2, response: { text: 'Fine, I will decide without more lookups.' } } });
    expect(fake!.requests).toHaveLength(3);
    // The tools stay offered (the history holds tool calls), but may not be called.
    expect(fake!.requests[2]!.tools).toEqual(['lookup', 'vote']);
  });

  it('GIVEN the model fails after the SDK retries WHEN looped THEN the loop ends with the error, and the failed call is recorded', async () => {
    const provider = await start({ script: [reply.tool('lookup', { player: 'Grace' }), reply.status(400, 'context too long')] });
    const records: CallRecord[] = [];

    const result = await runToolLoop({
      provider: metered(provider, { record: (record) => void records.push(record) }),
      request: ASK,
      tools: TOOLS,
      context: table(),
    });

    expect(result).toEqual({ ok: false, error: objectContaining({ kind: 'bad_request', status: 400 }) });
    expect(records.map((record) => (record.ok ? 'ok' : record.error))).toEqual(['ok', 'bad_request']);
    expect(records[1]!.usage).toEqual({ inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 });
  });

  it('GIVEN a model call that hangs WHEN the caller aborts THEN the loop ends with aborted', async () => {
    const provider = await start({ script: [reply.tool('lookup', { player: 'Grace' })] });
    const abort = new AbortController();
    // The caller aborts while the second model call hangs: once the fake holds it.
    fake!.handle(() => {
      abort.abort();
      return reply.hang();
    });

    const result = await runToolLoop({ provider, request: ASK, tools: TOOLS, context: table(), signal: abort.signal });

    expect(result).toEqual({ ok: false, error: objectContaining({ kind: 'aborted' }) });
    expect(fake!.requests).toHaveLength(2);
  });

  it('GIVEN an output schema WHEN the model answers after a tool round THEN the structured answer comes back', async () => {
    const provider = await start({ script: [reply.tool('lookup', { player: 'Alan' }), reply.structured({ target: 'Alan' })] });
    const output = {
      name: 'decision',
      schema: { type: 'object', properties: { target: { type: 'string' } }, required: ['target'], additionalProperties: false },
    };

    const result = await runToolLoop({ provider, request: { ...ASK, output }, tools: TOOLS, context: table() });

    expect(result).toMatchObject({ ok: true, value: { rounds: 1, response: { structured: { target: 'Alan' }, toolCalls: [] } } });
  });
});
