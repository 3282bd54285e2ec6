import { beforeAll, expect, it } from 'vitest';
import { TokenBudget } from '../../src/agents/budget.ts';
import { createLlmCallStore, type CallCost } from '../../src/db/llm-call-store.ts';
import type { Database } from '../../src/db/open-database.ts';
import { describeOn, testBackends } from './test-databases.ts';

const DAY = 86_400_000;
const NOON = Date.UTC(2026, 10, 22, 12);

const call = (over: Partial<CallCost> = {}): CallCost => ({
  guildId: 'guild-1',
  gameId: 'game-1',
  playerId: 'seat1',
  purpose: 'decision',
  provider: 'openai',
  model: 'gpt-test',
  inputTokens: 1000,
  outputTokens: 200,
  cachedInputTokens: 700,
  cacheWriteInputTokens: 0,
  cacheWrite1hInputTokens: 0,
  costUsd: 0.00039,
  latencyMs: 812,
  ok: true,
  errorKind: null,
  at: NOON,
  ...over,
});

for (const backend of testBackends('llm_calls_test')) {
  describeOn(backend, `LLM call ledger on ${backend.name}`, () => {
    let db: Database;
    beforeAll(async () => {
      db = await backend.open();
      // Runs after the suite, and only if the database opened.
      return () => db.close();
    });

    it('GIVEN calls on two days and two servers WHEN today’s tokens are summed THEN only that server’s calls since midnight count', async () => {
      const store = createLlmCallStore(db.prisma);
      await store.record(call());
      await store.record(call({ at: NOON - DAY }));
      await store.record(call({ guildId: 'guild-2' }));
      await store.record(call({ ok: false, errorKind: 'rate_limited', inputTokens: 0, outputTokens: 0 }));
      expect(await store.spentSince({ guildId: 'guild-1' }, NOON - (NOON % DAY))).toEqual({ tokens: 1200, dollars: 0.00039 * 2 });
      const rows = await store.forGame('game-1');
      expect(rows).toHaveLength(4);
      expect(rows.find((r) => !r.ok)).toMatchObject({ errorKind: 'rate_limited', cachedInputTokens: 700 });
    });

    it('GIVEN calls with their list price and cache writes WHEN read back and a day is added up THEN the dollars are exact, and a model without a price counts as none', async () => {
      const store = createLlmCallStore(db.prisma);
      const at = NOON + 10 * DAY;
      await store.record(call({ gameId: 'priced', at, costUsd: 0.0123456789, cacheWriteInputTokens: 300, cacheWrite1hInputTokens: 100 }));
      await store.record(call({ gameId: 'priced', at, costUsd: 0.0000000001 }));
      await store.record(call({ gameId: 'priced', at, model: 'llama-local', costUsd: null }));

      const rows = await store.forGame('priced');
      expect(rows.map((r) => r.costUsd)).toEqual([0.0123456789, 0.0000000001, null]);
      expect(rows[0]).toMatchObject({ cacheWriteInputTokens: 300, cacheWrite1hInputTokens: 100 });
      // What an operator's SUM over the day gives, to check against the invoice.
      const day = await db.prisma.llmCall.aggregate({
        where: { createdAt: { gte: new Date(at - (at % DAY)), lt: new Date(at - (at % DAY) + DAY) } },
        _sum: { costUsd: true },
      });
      expect(day._sum.costUsd?.toString()).toBe('0.012345679');
    });

    it('GIVEN a daily budget WHEN calls are recorded through it THEN it allows calls until the budget is spent, and again the next day', async () => {
      let now = NOON + 3 * DAY;
      const budget = new TokenBudget(createLlmCallStore(db.prisma), { server: { tokens: 2_000 } }, () => now);
      expect(await budget.allows('guild-3')).toBe(true);
      await budget.record(call({ guildId: 'guild-3', at: now }));
      expect(await budget.allows('guild-3')).toBe(true);
      await budget.record(call({ guildId: 'guild-3', at: now }));
      expect(await budget.allows('guild-3')).toBe(false);
      now += DAY;
      expect(await budget.allows('guild-3')).toBe(true);
      expect(await new TokenBudget(createLlmCallStore(db.prisma), { server: { tokens: 0 } }, () => now).allows('guild-3')).toBe(true);
    });

    it('GIVEN one person’s calls in two servers and in DMs, and a game’s seats in a server WHEN their day is summed THEN theirs count everywhere, and the seats only for the server (the new userId column and its index)', async () => {
      const store = createLlmCallStore(db.prisma);
      const at = NOON + 20 * DAY;
      const midnight = at - (at % DAY);
      await store.record(call({ guildId: 'guild-a', gameId: null, userId: 'user-1', purpose: 'persona_test', at, costUsd: 0.5 }));
      await store.record(call({ guildId: 'guild-b', gameId: null, userId: 'user-1', purpose: 'editor', at, costUsd: 0.25 }));
      await store.record(call({ guildId: null, gameId: null, userId: 'user-1', purpose: 'profile', at, costUsd: null }));
      await store.record(call({ guildId: 'guild-a', at, costUsd: 1 }));
      await store.record(call({ guildId: 'guild-a', userId: 'user-1', at: at - DAY }));

      expect(await store.spentSince({ userId: 'user-1' }, midnight)).toEqual({ tokens: 3600, dollars: 0.75 });
      expect(await store.spentSince({ guildId: 'guild-a' }, midnight)).toEqual({ tokens: 2400, dollars: 1.5 });
      expect(await store.spentSince({ guildId: null }, midnight)).toEqual({ tokens: 1200, dollars: 0 });
      const indexes = await db.prisma.$queryRaw<
        { indexname: string }[]
      >`SELECT indexname::text AS indexname FROM pg_indexes WHERE tablename = 'LlmCall'`;
      expect(indexes.map((i) => i.indexname)).toContain('LlmCall_userId_createdAt_idx');
    });

    it('GIVEN a person’s token and dollar budgets read from the ledger WHEN a dear model’s calls are recorded THEN the dollars run out first, and the refusal says it is their budget', async () => {
      const now = NOON + 30 * DAY;
      const ledger = createLlmCallStore(db.prisma);
      await ledger.record(call({ guildId: 'guild-c', gameId: null, userId: 'user-2', at: now, costUsd: 0.9 }));
      const budget = new TokenBudget(ledger, { user: { tokens: 100_000, dollars: 1 } }, () => now);
      expect(await budget.allows('guild-c', 'user-2')).toBe(true);
      await budget.record(call({ guildId: null, gameId: null, userId: 'user-2', at: now, costUsd: 0.2 }));
      expect(await budget.refusal('guild-d', 'user-2')).toMatch(/^Your own AI budget for today/);
      expect(await budget.allows('guild-c', 'user-3')).toBe(true);
    });
  });
}
