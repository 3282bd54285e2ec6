import { afterEach, describe, expect, it } from 'vitest';
import { memoryLedger, TokenBudget } from '../../src/agents/budget.ts';
import { plainPersona } from '../../src/agents/player/persona-prompt.ts';
import { budgetSink, Seating } from '../../src/agents/seating.ts';
import { HOUSE_PLAYERS } from '../../src/agents/seats.ts';
import { playHeadless } from '../../src/session/headless-game.ts';
import type { LlmConfig } from '../../src/config.ts';
import type { FakeLlmServer } from '../../scripts/fakes/llm/fake-llm-server.ts';
import { startFakeOpenAi } from '../../scripts/fakes/llm/fake-openai.ts';
import { playingModel } from '../../scripts/fakes/llm/playing-model.ts';

let fake: FakeLlmServer | undefined;
afterEach(async () => fake?.close());

function env(over: Partial<LlmConfig> = {}, baseURL?: string): LlmConfig {
  return {
    provider: 'openai',
    openai: { apiKey: 'k', baseURL, model: 'gpt-test' },
    anthropic: { apiKey: undefined, baseURL: undefined, model: 'claude-test' },
    timeoutMs: 2000,
    maxToolRounds: 2,
    dailyTokenBudget: 0,
    ...over,
  };
}

describe('seating AI players', () => {
  it('GIVEN OpenAI is configured WHEN a game is seated THEN seats and summaries call the model and every call is recorded with its seat and game', async () => {
    fake = await startFakeOpenAi(playingModel({ usage: { input: 1000, output: 50, cached: 800 } }));
    const ledger = memoryLedger();
    const budget = new TokenBudget(ledger, 0);
    const costs = budgetSink(budget);
    const seating = new Seating(env({}, fake.baseURL), { guildId: 'g1', gameId: 'game-1' }, { budget, cost: costs.sink });
    const seats = HOUSE_PLAYERS.slice(0, 5).map((v, i) => seating.seat({ id: `s${i}`, name: v.name }, plainPersona(v)));
    const summarizer = seating.summarizer();
    const result = await playHeadless({
      gameId: 'game-1',
      seed: 4,
      seats,
      ...(summarizer && { summarizer }),
      settings: { rules: { maxQuietCycles: 2 } },
    });
    expect(result.ok).toBe(true);
    await costs.flush();
    expect(ledger.calls.length).toBe(fake.requests.length);
    expect(ledger.calls.every((c) => c.guildId === 'g1' && c.gameId === 'game-1' && c.model === 'gpt-test')).toBe(true);
    expect(ledger.calls.some((c) => c.purpose === 'summary' && c.playerId === null)).toBe(true);
    expect(ledger.calls.find((c) => c.purpose === 'decision')).toMatchObject({
      inputTokens: 1000,
      outputTokens: 50,
      cachedInputTokens: 800,
      ok: true,
    });
  });

  it('GIVEN no provider is configured WHEN seated THEN every seat plays offline and no summary call is made', async () => {
    const seating = new Seating(env({ provider: 'offline' }), { guildId: 'g1', gameId: 'game-2' });
    expect(seating.summarizer()).toBeUndefined();
    const seats = HOUSE_PLAYERS.slice(0, 5).map((v, i) => seating.seat({ id: `s${i}`, name: v.name }, plainPersona(v)));
    expect(seats.every((s) => s.brain === s.offline)).toBe(true);
    const result = await playHeadless({ gameId: 'game-2', seed: 4, seats });
    expect(result.ok).toBe(true);
  });
});
