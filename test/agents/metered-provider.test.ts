import { afterEach, describe, expect, it } from 'vitest';
import { budgetSpentMessage, callCost, memoryLedger, nextUtcMidnight, TokenBudget } from '../../src/agents/budget.ts';
import type { LlmRequest, StreamDelta } from '../../src/llm/types.ts';
import { meteredProvider } from '../../src/agents/metered-provider.ts';
import { reply } from '../../scripts/fakes/llm/fake-llm-server.ts';
import { PROVIDER_NAMES, startFakeProvider, type FakeProvider } from '../../scripts/fakes/llm/fake-providers.ts';
import { stringContaining } from '../support/matchers.ts';

const NINE_PM = Date.UTC(2026, 10, 23, 21, 0);
const ASK: LlmRequest = {
  model: 'test-model',
  system: { stable: 'You are terse.' },
  messages: [{ role: 'user', content: 'Hello?' }],
  maxTokens: 50,
};
const SITE = { guildId: 'guild-1', personaId: 'persona-1', purpose: 'persona_test' };
/** A call of 20 tokens, past any budget of 10. */
const CALL_RECORD = {
  provider: 'openai',
  model: 'gpt-6-luna',
  usage: { inputTokens: 10, outputTokens: 10, cachedInputTokens: 0 },
  latencyMs: 5,
  ok: true,
} as const;

let running: FakeProvider | undefined;
afterEach(async () => {
  await running?.fake.close();
  running = undefined;
});

async function drain(stream: AsyncIterable<StreamDelta>): Promise<StreamDelta[]> {
  const deltas: StreamDelta[] = [];
  for await (const delta of stream) deltas.push(delta);
  return deltas;
}

describe('callCost: the one mapping from a call record to a ledger row', () => {
  it('GIVEN a call of a model the table prices WHEN mapped THEN the row keeps the cache writes and what the call cost at list price', () => {
    // claude-sonnet-5-5: $2 input, $0.10 cache read, $2.50 and $4 for 5-minute and 1-hour writes, $10 output.
    const usage = {
      inputTokens: 4700,
      outputTokens: 100,
      cachedInputTokens: 3000,
      cacheWriteInputTokens: 700,
      cacheWrite1hInputTokens: 200,
    };
    const record = { provider: 'anthropic', model: 'claude-sonnet-5-5', usage, latencyMs: 800, ok: true } as const;

    const row = callCost({ guildId: 'guild-1', gameId: 'g', playerId: 'seat1', purpose: 'decision' }, record);

    expect(row).toMatchObject({ cacheWriteInputTokens: 700, cacheWrite1hInputTokens: 200 });
    expect(row.costUsd).toBeCloseTo((1000 * 2 + 3000 * 0.1 + 500 * 2.5 + 200 * 4 + 100 * 10) / 1e6, 12);
  });

  it('GIVEN a failed call at a site naming only its guild and purpose WHEN mapped THEN what the site does not name is null and the error kind is kept', () => {
    const record = {
      provider: 'openai',
      model: 'm',
      usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 },
      latencyMs: 12.6,
      ok: false,
      error: 'timeout',
    } as const;
    expect(callCost({ guildId: null, purpose: 'profile' }, record)).toEqual({
      guildId: null,
      gameId: null,
      playerId: null,
      personaId: null,
      userId: null,
      purpose: 'profile',
      provider: 'openai',
      model: 'm',
      inputTokens: 0,
      outputTokens: 0,
      cachedInputTokens: 0,
      cacheWriteInputTokens: 0,
      cacheWrite1hInputTokens: 0,
      costUsd: null,
      latencyMs: 13,
      ok: false,
      errorKind: 'timeout',
    });
  });
});

describe('the budget’s refusal message', () => {
  it('GIVEN 21:00 UTC WHEN the budget is spent THEN the message says it resets at midnight UTC, in 3 hours', () => {
    expect(nextUtcMidnight(NINE_PM)).toBe(Date.UTC(2026, 10, 24));
    expect(budgetSpentMessage(NINE_PM)).toBe("This server's AI budget for today is spent; it resets at midnight UTC (in 3 h 0 min).");
    expect(budgetSpentMessage(Date.UTC(2026, 10, 23, 23, 59, 30))).toMatch(/\(in 1 min\)/);
    expect(budgetSpentMessage(NINE_PM, 'dms')).toBe(
      "The bot's AI budget for DMs for today is spent; it resets at midnight UTC (in 3 h 0 min).",
    );
    expect(budgetSpentMessage(NINE_PM, 'user')).toBe(
      'Your own AI budget for today (what you ask of the AI in every server and in DMs) is spent; it resets at midnight UTC (in 3 h 0 min).',
    );
  });

  it('GIVEN spent budgets WHEN a call is asked for THEN the refusal names the one spent, the person’s first', async () => {
    const ledger = memoryLedger();
    const budget = new TokenBudget(ledger, { server: { tokens: 10 }, dms: { tokens: 10 }, user: { tokens: 10 } }, () => NINE_PM);
    await budget.record(callCost({ guildId: 'g1', purpose: 'decision' }, CALL_RECORD));
    await budget.record(callCost({ guildId: null, userId: 'u1', purpose: 'persona_test' }, CALL_RECORD));

    expect(await budget.refusal('g1')).toBe(budgetSpentMessage(NINE_PM, 'server'));
    expect(await budget.refusal(null)).toBe(budgetSpentMessage(NINE_PM, 'dms'));
    expect(await budget.refusal('g2', 'u1')).toBe(budgetSpentMessage(NINE_PM, 'user'));
    expect(await budget.refusal('g2', 'u2')).toBeNull();
  });
});

for (const wire of PROVIDER_NAMES) {
  describe(`a metered provider over the ${wire} wire`, () => {
    it('GIVEN a budget with room WHEN a call is completed THEN it reaches the model and one ledger row names the site, tokens and latency', async () => {
      running = await startFakeProvider(wire, { script: [reply.text('Hi.', { usage: { input: 100, output: 20 } })] });
      const ledger = memoryLedger();
      const metered = meteredProvider(running.provider, { budget: new TokenBudget(ledger, { server: { tokens: 1_000 } }), site: SITE });
      const result = await metered.complete(ASK);
      expect(result.ok && result.value.text).toBe('Hi.');
      expect(ledger.calls).toEqual([
        expect.objectContaining({
          guildId: 'guild-1',
          gameId: null,
          playerId: null,
          personaId: 'persona-1',
          purpose: 'persona_test',
          provider: wire,
          model: 'test-model',
          inputTokens: 100,
          outputTokens: 20,
          ok: true,
          errorKind: null,
        }),
      ]);
      expect(ledger.calls[0]!.latencyMs).toBeGreaterThanOrEqual(0);
      expect(metered.budgetRefused()).toBe(false);
    });

    it('GIVEN a spent budget WHEN a call or a stream is asked for THEN nothing reaches the model, the error says when the budget resets, and nothing is recorded', async () => {
      running = await startFakeProvider(wire);
      const ledger = memoryLedger();
      const budget = new TokenBudget(ledger, { server: { tokens: 100 } }, () => NINE_PM);
      await budget.record({
        ...callCost(SITE, {
          provider: wire,
          model: 'm',
          usage: { inputTokens: 90, outputTokens: 10, cachedInputTokens: 0 },
          latencyMs: 1,
          ok: true,
        }),
        at: NINE_PM,
      });
      const metered = meteredProvider(running.provider, { budget, site: SITE });
      expect(await metered.complete(ASK)).toEqual({ ok: false, error: { kind: 'budget', message: budgetSpentMessage(NINE_PM) } });
      expect(await drain(metered.stream(ASK))).toEqual([
        { type: 'error', error: { kind: 'budget', message: budgetSpentMessage(NINE_PM) } },
      ]);
      expect(running.fake.requests).toHaveLength(0);
      expect(ledger.calls).toHaveLength(1);
      expect(metered.budgetRefused()).toBe(true);
    });

    it('GIVEN a model that fails WHEN called THEN the failed call is recorded with its error kind and no tokens', async () => {
      running = await startFakeProvider(wire, { script: [reply.status(400, 'bad model')], maxRetries: 0 });
      const ledger = memoryLedger();
      const metered = meteredProvider(running.provider, { budget: new TokenBudget(ledger, { server: { tokens: 1_000 } }), site: SITE });
      expect(await metered.complete(ASK)).toMatchObject({ ok: false, error: { kind: 'bad_request' } });
      expect(ledger.calls).toEqual([expect.objectContaining({ ok: false, errorKind: 'bad_request', inputTokens: 0, outputTokens: 0 })]);
      expect(metered.budgetRefused()).toBe(false);
    });

    it('GIVEN a streamed call WHEN it is read to its end THEN it is recorded once with the usage of its response', async () => {
      running = await startFakeProvider(wire, { script: [reply.text('Streamed.', { usage: { input: 70, output: 9 } })] });
      const ledger = memoryLedger();
      const metered = meteredProvider(running.provider, { budget: new TokenBudget(ledger, { server: { tokens: 1_000 } }), site: SITE });
      const deltas = await drain(metered.stream(ASK));
      expect(deltas.at(-1)?.type).toBe('done');
      expect(ledger.calls).toEqual([expect.objectContaining({ purpose: 'persona_test', inputTokens: 70, outputTokens: 9, ok: true })]);
    });
  });
}

describe('a metered provider in a DM, and its ledger', () => {
  it('GIVEN a call from a DM WHEN only servers have a limit THEN it is allowed and recorded with guild null', async () => {
    running = await startFakeProvider('openai', { script: [reply.text('Hi.', { usage: { input: 500, output: 500, cached: 200 } })] });
    const ledger = memoryLedger();
    const metered = meteredProvider(running.provider, {
      budget: new TokenBudget(ledger, { server: { tokens: 10 } }),
      site: { guildId: null, purpose: 'profile' },
    });
    expect((await metered.complete(ASK)).ok).toBe(true);
    expect(ledger.calls).toEqual([
      expect.objectContaining({ guildId: null, personaId: null, purpose: 'profile', inputTokens: 500, cachedInputTokens: 200 }),
    ]);
  });

  it('GIVEN a DM budget of 1,000 tokens WHEN DM calls have spent it THEN the next DM call is refused, saying the DMs’ budget is spent, while a server with room still calls', async () => {
    running = await startFakeProvider('openai', {
      script: [reply.text('Hi.', { usage: { input: 600, output: 500 } }), reply.text('Server.', { usage: { input: 10, output: 10 } })],
    });
    const ledger = memoryLedger();
    const budget = new TokenBudget(ledger, { server: { tokens: 1_000_000 }, dms: { tokens: 1000 } });
    const inDm = meteredProvider(running.provider, { budget, site: { guildId: null, purpose: 'persona_test' } });
    const inServer = meteredProvider(running.provider, { budget, site: { guildId: 'g1', purpose: 'persona_test' } });

    expect((await inDm.complete(ASK)).ok).toBe(true);
    const refused = await inDm.complete(ASK);

    expect(refused).toMatchObject({
      ok: false,
      error: { kind: 'budget', message: stringContaining("The bot's AI budget for DMs for today is spent") },
    });
    expect((await inServer.complete(ASK)).ok).toBe(true);
    expect(running.fake.requests).toHaveLength(2);
  });

  it('GIVEN a ledger that cannot write WHEN a call is made THEN its result stands and the failure is reported', async () => {
    running = await startFakeProvider('openai', { script: [reply.text('Hi.')] });
    const broken = { record: () => Promise.reject(new Error('disk full')), spentSince: () => Promise.resolve({ tokens: 0, dollars: 0 }) };
    const failures: unknown[] = [];
    const metered = meteredProvider(running.provider, {
      budget: new TokenBudget(broken, { server: { tokens: 1_000 } }),
      site: SITE,
      onRecordError: (e) => failures.push(e),
    });
    expect((await metered.complete(ASK)).ok).toBe(true);
    expect(failures).toEqual([new Error('disk full')]);
  });
});
