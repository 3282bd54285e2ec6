import { afterEach, describe, expect, it } from 'vitest';
import { memoryLedger, TokenBudget } from '../../src/agents/budget.ts';
import { plainPersona } from '../../src/agents/player/persona-prompt.ts';
import { budgetSink, Seating } from '../../src/agents/seating.ts';
import { HOUSE_PLAYERS } from '../../src/agents/seats.ts';
import { playHeadless } from '../../src/session/headless-game.ts';
import type { LlmConfig } from '../../src/config.ts';
import { directorsCut } from '../../src/agents/directors-cut.ts';
import { reply, type FakeLlmServer } from '../../scripts/fakes/llm/fake-llm-server.ts';
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
    const budget = new TokenBudget(ledger, {});
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

  it('GIVEN a persona that names a model the operator does not allow WHEN seated THEN it plays on the bot’s model, and the seat carries one line for the table saying so', () => {
    const seating = new Seating(env({ allowedModels: [] }), { guildId: 'g1', gameId: 'game-4' });
    const v = HOUSE_PLAYERS[0]!;
    const seat = seating.seat({ id: 's0', name: v.name }, { ...plainPersona(v), preference: { model: 'gpt-most-expensive' } });
    expect(seat.notice).toEqual({
      topic: 'model-refused:s0',
      text: `${v.name}'s persona names the model gpt-most-expensive, which this bot does not allow (ALLOWED_MODELS): ${v.name} plays on gpt-test instead.`,
    });
    expect(seating.seat({ id: 's1', name: v.name }, plainPersona(v)).notice).toBeUndefined();
  });

  it('GIVEN OpenAI no longer serves the bot’s model nor the one a persona asks for WHEN a game is played THEN those seats play on instinct, the table is told once per setting to change (never the provider’s words) and the director’s cut says why', async () => {
    fake = await startFakeOpenAi(() => reply.status(404, 'The model does not exist or you do not have access to it. req_7f3a'));
    // The operator allows the persona's model: the provider is what turns it down here.
    const seating = new Seating(env({ allowedModels: ['gpt-persona-gone'] }, fake.baseURL), { guildId: 'g1', gameId: 'game-3' });
    const seats = HOUSE_PLAYERS.slice(0, 5).map((v, i) =>
      seating.seat({ id: `s${i}`, name: v.name }, { ...plainPersona(v), ...(i === 0 && { preference: { model: 'gpt-persona-gone' } }) }),
    );

    const result = await playHeadless({ gameId: 'game-3', seed: 4, seats, settings: { rules: { maxQuietCycles: 2 } } });

    if (!result.ok) throw new Error(result.error);
    const state = result.value;
    const told = state.log.flatMap((e) => (e.type === 'notice' && e.payload.topic?.startsWith('model:') ? [e.payload] : []));
    const first = state.players[0]!.name;
    expect(told.map((n) => n.topic).sort()).toEqual(['model:env:openai:gpt-test', 'model:persona:s0']);
    expect(told.find((n) => n.topic === 'model:persona:s0')?.text).toBe(
      `${first}'s persona asks for the model \`gpt-persona-gone\`, which OpenAI does not serve (retired or unknown); ${first} plays on instinct. To fix it, change the persona's model (\`/persona edit\`).`,
    );
    expect(told.find((n) => n.topic === 'model:env:openai:gpt-test')?.text).toBe(
      "The bot's OpenAI model `gpt-test` is retired or unknown to OpenAI; the AI players on it play on instinct. Whoever runs the bot needs to change OPENAI_MODEL.",
    );
    expect(told.every((n) => !n.text.includes('req_7f3a') && !n.text.includes('does not exist'))).toBe(true);
    expect(state.log.some((e) => e.type === 'notice' && e.payload.topic?.startsWith('fallback:'))).toBe(false);
    const reasons = state.log.flatMap((e) => (e.type === 'reasoning' ? [e.payload.fallback] : []));
    expect(reasons.length).toBeGreaterThan(0);
    expect(reasons.every((f) => f === 'model_unavailable')).toBe(true);
    expect(directorsCut(state).join('\n')).toContain('(offline fallback: model unavailable)');
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
