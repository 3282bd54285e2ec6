import { describe, expect, it, onTestFinished } from 'vitest';
import { createAnthropicProvider } from '../../src/llm/anthropic-provider.ts';
import { createOpenAiProvider } from '../../src/llm/openai-provider.ts';
import type { LlmRequest, StreamDelta } from '../../src/llm/types.ts';
import { loadConfig } from '../../src/config.ts';
import { createProvider } from '../../src/llm/providers.ts';
import { reply } from '../../scripts/fakes/llm/fake-llm-server.ts';
import { PROVIDER_NAMES, startFakeProvider } from '../../scripts/fakes/llm/fake-providers.ts';
import { objectContaining } from '../support/matchers.ts';

const VOTE_SCHEMA = {
  type: 'object',
  properties: { target: { type: 'string' } },
  required: ['target'],
  additionalProperties: false,
};

const ASK: LlmRequest = {
  model: 'test-model',
  system: { stable: 'You are Ada Lovelace, playing Mafia.', dynamic: 'It is day 2.' },
  messages: [{ role: 'user', content: 'Who do you suspect?' }],
};

const WITH_VOTE_TOOL: LlmRequest = { ...ASK, tools: [{ name: 'vote', description: 'Vote for a player', inputSchema: VOTE_SCHEMA }] };

async function collect(stream: AsyncIterable<StreamDelta>): Promise<StreamDelta[]> {
  const deltas: StreamDelta[] = [];
  for await (const delta of stream) deltas.push(delta);
  return deltas;
}

// Concurrent: most of the time here is the SDKs' retry back-off, which need not add up.
describe.concurrent.each(PROVIDER_NAMES)('the %s provider through its real SDK', (name) => {
  async function start(options: Parameters<typeof startFakeProvider>[1] = {}) {
    const started = await startFakeProvider(name, options);
    onTestFinished(() => started.fake.close());
    return started;
  }

  describe('answers', () => {
    it('GIVEN the model answers in text WHEN completed THEN the text, stop reason, usage and model come back', async () => {
      const { provider, fake } = await start({ script: [reply.text('Grace is too quiet.', { usage: { input: 120, output: 7 } })] });

      const result = await provider.complete(ASK);

      expect(result).toMatchObject({
        ok: true,
        value: {
          text: 'Grace is too quiet.',
          toolCalls: [],
          structured: undefined,
          stopReason: 'end_turn',
          usage: { inputTokens: 120, outputTokens: 7, cachedInputTokens: 0 },
          model: 'test-model',
        },
      });
      expect(fake.last.model).toBe('test-model');
      expect(fake.last.system).toContain('You are Ada Lovelace');
      expect(fake.last.lastUserText).toBe('Who do you suspect?');
    });

    it('GIVEN the model calls a tool WHEN completed THEN the call comes back with parsed input and stop reason tool_use', async () => {
      const { provider, fake } = await start({ script: [reply.tool('vote', { target: 'Grace' }, { text: 'I vote. ' })] });

      const result = await provider.complete(WITH_VOTE_TOOL);

      expect(result.ok && result.value).toMatchObject({
        text: 'I vote. ',
        toolCalls: [{ name: 'vote', input: { target: 'Grace' } }],
        stopReason: 'tool_use',
      });
      expect(fake.last.tools).toEqual(['vote']);
    });

    it('GIVEN an output schema WHEN the model answers with it THEN `structured` holds the parsed answer and no tool call is reported', async () => {
      const { provider, fake } = await start({ script: [reply.structured({ target: 'Grace' })] });

      const result = await provider.complete({ ...ASK, output: { name: 'decision', schema: VOTE_SCHEMA } });

      expect(result.ok && result.value).toMatchObject({ structured: { target: 'Grace' }, toolCalls: [], stopReason: 'end_turn' });
      expect(fake.last.outputName).toBe('decision');
      expect(fake.last.outputSchema).toMatchObject({ properties: { target: { type: 'string' } }, required: ['target'] });
    });

    it('GIVEN cached prompt tokens WHEN completed THEN inputTokens counts every prompt token and cachedInputTokens the cached part', async () => {
      // OpenAI's prompt_tokens already include the cached ones; Anthropic reports them beside input_tokens.
      const usage =
        name === 'openai' ? { input: 1_050, cached: 1_000, output: 9 } : { input: 30, cached: 1_000, cacheWrite: 20, output: 9 };
      const { provider } = await start({ script: [reply.text('Noted.', { usage })] });

      const result = await provider.complete(ASK);

      // Anthropic also says what was written to the cache (billed above the plain rate).
      const written = name === 'anthropic' ? { cacheWriteInputTokens: 20, cacheWrite1hInputTokens: 0 } : {};
      expect(result.ok && result.value.usage).toEqual({ inputTokens: 1_050, outputTokens: 9, cachedInputTokens: 1_000, ...written });
    });

    it('GIVEN prompt tokens written to the cache WHEN completed THEN the writes, and on Anthropic their 1-hour part, are counted apart for their own price', async () => {
      // Anthropic reports 5-minute and 1-hour writes apart (cache_creation); OpenAI reports writes from gpt-5.6 on.
      const usage =
        name === 'openai'
          ? { input: 1_050, cached: 600, cacheWrite: 400, output: 9 }
          : { input: 50, cached: 600, cacheWrite: 400, cacheWrite1h: 150, output: 9 };
      const { provider } = await start({ script: [reply.text('Noted.', { usage })] });

      const result = await provider.complete(ASK);

      const hour = name === 'anthropic' ? { cacheWrite1hInputTokens: 150 } : {};
      expect(result.ok && result.value.usage).toEqual({
        inputTokens: 1_050,
        outputTokens: 9,
        cachedInputTokens: 600,
        cacheWriteInputTokens: 400,
        ...hour,
      });
    });
  });

  describe('prompt cache (usage computed by the fake from the request)', () => {
    const LONG: LlmRequest = { ...ASK, system: { stable: 'You are Ada Lovelace, playing Mafia. '.repeat(150), dynamic: 'It is day 2.' } };
    const voteOn = (names: string[]): LlmRequest => ({
      ...LONG,
      output: { name: 'decision', schema: { ...VOTE_SCHEMA, properties: { target: { type: 'string', enum: names } } } },
    });

    it('GIVEN a long stable system prompt WHEN the same request is completed, then streamed THEN the second reads the cache and inputTokens counts every prompt token both times', async () => {
      const { provider, fake } = await start({ script: () => reply.text('Noted.') });

      const first = await provider.complete(LONG);
      const second = (await collect(provider.stream(LONG))).at(-1);

      const [written, read] = fake.usages;
      expect(first.ok && first.value.usage).toEqual({
        inputTokens: written!.input,
        outputTokens: written!.output,
        cachedInputTokens: 0,
        ...(name === 'anthropic' && { cacheWriteInputTokens: written!.cacheWrite, cacheWrite1hInputTokens: 0 }),
      });
      expect(read!.cachedRead).toBeGreaterThanOrEqual(1_024);
      expect(second).toMatchObject({
        type: 'done',
        response: { usage: { inputTokens: written!.input, outputTokens: read!.output, cachedInputTokens: read!.cachedRead } },
      });
    });

    it('GIVEN an output schema WHEN its enum changes between calls THEN nothing is read from the cache, since the schema comes before the prompt', async () => {
      const { provider } = await start({ script: () => reply.structured({ target: 'Ada' }) });
      const cachedOf = async (request: LlmRequest) => {
        const result = await provider.complete(request);
        return result.ok ? result.value.usage.cachedInputTokens : result.error.kind;
      };

      await cachedOf(voteOn(['Ada', 'Grace']));
      const same = await cachedOf(voteOn(['Ada', 'Grace']));
      const changed = await cachedOf(voteOn(['Ada', 'Edith']));

      expect(same).toBeGreaterThanOrEqual(1_024);
      expect(changed).toBe(0);
    });
  });

  describe('streaming', () => {
    it('GIVEN text then a tool call WHEN streamed THEN text deltas come in order, then the call, then done with the whole response', async () => {
      const { provider, fake } = await start({ script: [reply.tool('vote', { target: 'Grace' }, { text: 'Grace, I am sorry. ' })] });

      const deltas = await collect(provider.stream(WITH_VOTE_TOOL));

      const kinds = deltas.map((delta) => delta.type);
      expect(kinds.filter((kind) => kind === 'text').length).toBeGreaterThan(1);
      expect(kinds.join(' ')).toMatch(/^(text )+tool_call done$/);
      const text = deltas.flatMap((delta) => (delta.type === 'text' ? [delta.text] : [])).join('');
      expect(text).toBe('Grace, I am sorry. ');
      expect(deltas.find((delta) => delta.type === 'tool_call')).toMatchObject({ call: { name: 'vote', input: { target: 'Grace' } } });
      expect(deltas.at(-1)).toMatchObject({
        type: 'done',
        response: { text, toolCalls: [{ name: 'vote', input: { target: 'Grace' } }], stopReason: 'tool_use' },
      });
      expect(fake.last.stream).toBe(true);
    });

    it('GIVEN a structured answer and usage WHEN streamed THEN done carries the parsed answer and the usage', async () => {
      const { provider } = await start({ script: [reply.structured({ target: 'Alan' }, { usage: { input: 50, output: 12 } })] });

      const deltas = await collect(provider.stream({ ...ASK, output: { name: 'decision', schema: VOTE_SCHEMA } }));

      expect(deltas.filter((delta) => delta.type === 'tool_call')).toEqual([]);
      expect(deltas.at(-1)).toMatchObject({
        type: 'done',
        response: { structured: { target: 'Alan' }, usage: { inputTokens: 50, outputTokens: 12 } },
      });
    });

    it('GIVEN the server fails with 401 WHEN streamed THEN the stream ends with one error delta instead of throwing', async () => {
      const { provider } = await start({ script: [reply.status(401, 'bad key')] });

      const deltas = await collect(provider.stream(ASK));

      expect(deltas).toEqual([{ type: 'error', error: objectContaining({ kind: 'auth', status: 401 }) }]);
    });

    it('GIVEN a slow stream WHEN aborted after the first delta THEN it ends with an aborted error', async () => {
      const { provider } = await start({ script: [reply.text('one two three four five six seven eight nine ten', { chunkDelayMs: 40 })] });
      const abort = new AbortController();

      const deltas: StreamDelta[] = [];
      for await (const delta of provider.stream({ ...ASK, signal: abort.signal })) {
        deltas.push(delta);
        if (delta.type === 'text') abort.abort();
      }

      expect(deltas.at(-1)).toEqual({ type: 'error', error: objectContaining({ kind: 'aborted' }) });
      expect(deltas.filter((delta) => delta.type === 'done')).toEqual([]);
    });

    it('GIVEN an unparsable stream event WHEN streamed THEN it ends with a bad_response error', async () => {
      const { provider } = await start({ script: [reply.malformed()] });

      const deltas = await collect(provider.stream(ASK));

      expect(deltas.at(-1)).toEqual({ type: 'error', error: objectContaining({ kind: 'bad_response' }) });
    });

    it('GIVEN a connection that drops mid-answer WHEN streamed THEN the words so far come, then a network error', async () => {
      const { provider } = await start({
        script: [reply.text('Grace is too quiet, and Bob agrees with everyone.', { cutAfterEvents: 4 })],
      });

      const deltas = await collect(provider.stream(ASK));

      expect(deltas.some((delta) => delta.type === 'text')).toBe(true);
      expect(deltas.at(-1)).toEqual({ type: 'error', error: objectContaining({ kind: 'network' }) });
    });
  });

  describe('retries (the SDK retries; the provider does not)', () => {
    it('GIVEN a 429 with retry-after: 1 WHEN completed THEN the SDK waits about a second, retries, and succeeds', async () => {
      const { provider, fake } = await start({ script: [reply.rateLimited(1), reply.text('Back.')] });

      const result = await provider.complete(ASK);

      expect(result.ok && result.value.text).toBe('Back.');
      expect(fake.requests).toHaveLength(2);
      expect(fake.requests[1]!.at - fake.requests[0]!.at).toBeGreaterThanOrEqual(950);
    });

    it('GIVEN two 500s WHEN completed THEN the second retry succeeds', async () => {
      const { provider, fake } = await start({ script: [reply.serverError(), reply.serverError(503), reply.text('Finally.')] });

      const result = await provider.complete(ASK);

      expect(result.ok && result.value.text).toBe('Finally.');
      expect(fake.requests).toHaveLength(3);
    });

    it('GIVEN a request that hangs WHEN the attempt times out THEN the SDK retries and succeeds', async () => {
      // Long enough for the retry to be answered while the whole file runs concurrently on a busy machine.
      const { provider, fake } = await start({ script: [reply.hang(), reply.text('Sorry, I dozed off.')], timeoutMs: 2_000 });

      const result = await provider.complete(ASK);

      expect(result.ok && result.value.text).toBe('Sorry, I dozed off.');
      expect(fake.requests).toHaveLength(2);
    });

    it('GIVEN the server keeps failing with 500 WHEN completed THEN it gives up after 2 retries with a server error value', async () => {
      const { provider, fake } = await start({
        script: [reply.serverError(), reply.serverError(), reply.serverError(), reply.text('too late')],
      });

      const result = await provider.complete(ASK);

      expect(result).toEqual({ ok: false, error: objectContaining({ kind: 'server', status: 500 }) });
      expect(fake.requests).toHaveLength(3);
    });

    it('GIVEN the server keeps rate limiting WHEN completed THEN it gives up with rate_limited', async () => {
      const { provider, fake } = await start({ script: [reply.rateLimited(0.05), reply.rateLimited(0.05), reply.rateLimited(0.05)] });

      const result = await provider.complete(ASK);

      expect(result).toEqual({ ok: false, error: objectContaining({ kind: 'rate_limited', status: 429 }) });
      expect(fake.requests).toHaveLength(3);
    });

    it('GIVEN every attempt hangs WHEN completed THEN it gives up with a timeout error value', async () => {
      // Long enough for every attempt to reach the fake (and be counted) before it times out.
      const { provider, fake } = await start({ script: [reply.hang(), reply.hang(), reply.hang()], timeoutMs: 2_000 });

      const result = await provider.complete(ASK);

      expect(result).toEqual({ ok: false, error: objectContaining({ kind: 'timeout' }) });
      expect(fake.requests).toHaveLength(3);
    });
  });

  describe('errors as values', () => {
    it.each([
      [401, 'auth'],
      [403, 'auth'],
      [400, 'bad_request'],
      [404, 'model_unavailable'],
    ] as const)('GIVEN the server answers %i WHEN completed THEN it is not retried and the error kind is %s', async (status, kind) => {
      const { provider, fake } = await start({ script: [reply.status(status)] });

      const result = await provider.complete(ASK);

      expect(result).toEqual({ ok: false, error: objectContaining({ kind, status }) });
      expect(fake.requests).toHaveLength(1);
    });

    it('GIVEN the provider answers that it does not serve the model, in its own error body WHEN completed THEN the kind is model_unavailable, whatever the retry headers say, and it is asked once', async () => {
      // OpenAI: 404 {error: {type: invalid_request_error, code: model_not_found}}; Anthropic: 404 {error: {type: not_found_error}}.
      const gone = reply.status(404, 'The model `gpt-gone` does not exist or you do not have access to it.', { 'x-should-retry': 'true' });
      const { fake } = await start({ script: [gone] });
      const env = loadConfig({
        LLM_PROVIDER: name,
        ...(name === 'openai'
          ? { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: fake.baseURL }
          : { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: fake.baseURL }),
      });
      if (!env.ok) throw new Error(env.error);
      const retrying = createProvider(name, env.value.llm);
      if (!retrying.ok) throw new Error(retrying.error);

      const result = await retrying.value.complete({ ...ASK, model: 'gpt-gone', deadline: Date.now() + 30_000 });

      expect(result).toEqual({ ok: false, error: objectContaining({ kind: 'model_unavailable', status: 404 }) });
      expect(fake.requests).toHaveLength(1);
    });

    it('GIVEN a 200 whose body is not JSON WHEN completed THEN the error kind is bad_response', async () => {
      const { provider } = await start({ script: [reply.malformed()] });

      expect(await provider.complete(ASK)).toEqual({ ok: false, error: objectContaining({ kind: 'bad_response' }) });
    });

    it('GIVEN a request that hangs WHEN the caller aborts THEN the call ends at once with aborted', async () => {
      const abort = new AbortController();
      // The caller aborts once the fake holds the request, which then hangs.
      const { provider } = await start({
        script: () => {
          abort.abort();
          return reply.hang();
        },
      });

      const result = await provider.complete({ ...ASK, signal: abort.signal });

      // 'aborted', not 'timeout': the call ended on the signal while the fake still held it.
      expect(result).toEqual({ ok: false, error: objectContaining({ kind: 'aborted' }) });
    });

    it('GIVEN nothing listens at the base URL WHEN completed THEN the error kind is network', async () => {
      const { fake: closed } = await start();
      await closed.close();
      const options = { apiKey: 'test-key', baseURL: closed.baseURL, timeoutMs: 1_000, maxRetries: 0, logLevel: 'off' as const };
      const provider = name === 'openai' ? createOpenAiProvider(options) : createAnthropicProvider(options);

      expect(await provider.complete(ASK)).toEqual({ ok: false, error: objectContaining({ kind: 'network' }) });
    });
  });
});
