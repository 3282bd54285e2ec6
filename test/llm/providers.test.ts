import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, type LlmConfig } from '../../src/config.ts';
import { createProvider, modelSetting, resolveModel } from '../../src/llm/providers.ts';
import { startFakeAnthropic } from '../../scripts/fakes/llm/fake-anthropic.ts';
import { reply, type FakeLlmServer } from '../../scripts/fakes/llm/fake-llm-server.ts';
import { startFakeOpenAi } from '../../scripts/fakes/llm/fake-openai.ts';

function llmConfig(env: Record<string, string>): LlmConfig {
  const loaded = loadConfig(env);
  if (!loaded.ok) throw new Error(loaded.error);
  return loaded.value.llm;
}

const BOTH = llmConfig({
  OPENAI_API_KEY: 'sk-test',
  ANTHROPIC_API_KEY: 'sk-ant-test',
  OPENAI_MODEL: 'gpt-env',
  ANTHROPIC_MODEL: 'claude-env',
  // These tests are about which level names the model; the operator allows every model they name.
  ALLOWED_MODELS: 'gpt-persona, gpt-game, claude-game, claude-persona',
});
const OPENAI_ONLY = llmConfig({ OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'gpt-env' });

describe('resolveModel', () => {
  it('GIVEN a persona naming a model the operator does not allow WHEN resolved THEN the seat plays on the next level’s model, and says which it passed over', () => {
    const pricey = { provider: 'openai', model: 'gpt-persona-pro' } as const;
    expect(resolveModel({ persona: pricey, env: BOTH })).toEqual({
      provider: 'openai',
      model: 'gpt-env',
      source: 'env',
      refused: { model: 'gpt-persona-pro', source: 'persona' },
    });
    expect(resolveModel({ persona: pricey, game: { model: 'gpt-game' }, env: BOTH })).toEqual({
      provider: 'openai',
      model: 'gpt-game',
      source: 'game',
      refused: { model: 'gpt-persona-pro', source: 'persona' },
    });
  });

  it('GIVEN no ALLOWED_MODELS WHEN a persona names a model of the table THEN it may play on it only if it costs no more than the configured one', () => {
    const env = llmConfig({ OPENAI_API_KEY: 'sk-test', ANTHROPIC_API_KEY: 'sk-ant-test' });
    expect(resolveModel({ persona: { provider: 'anthropic', model: 'claude-opus-5-5' }, env })).toMatchObject({
      model: 'claude-sonnet-5-5',
      refused: { model: 'claude-opus-5-5', source: 'persona' },
    });
    expect(resolveModel({ persona: { provider: 'anthropic', model: 'claude-haiku-5-5' }, env })).toEqual({
      provider: 'anthropic',
      model: 'claude-haiku-5-5',
      source: 'persona',
    });
    expect(resolveModel({ persona: { provider: 'openai', model: 'my-local-model' }, env })).toMatchObject({ model: 'gpt-6-luna' });
  });

  it('GIVEN no key at all WHEN resolved THEN the seat plays offline', () => {
    expect(resolveModel({ env: llmConfig({}) })).toEqual({ provider: 'offline', model: 'heuristic', source: 'env' });
  });

  it('GIVEN only the environment WHEN resolved THEN its provider and that provider’s model', () => {
    expect(resolveModel({ env: BOTH })).toEqual({ provider: 'openai', model: 'gpt-env', source: 'env' });
    expect(resolveModel({ env: llmConfig({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_MODEL: 'claude-env' }) })).toEqual({
      provider: 'anthropic',
      model: 'claude-env',
      source: 'env',
    });
  });

  it('GIVEN a game choice and a persona choice WHEN resolved THEN the persona wins, then the game, then the environment', () => {
    const game = { provider: 'anthropic', model: 'claude-game' } as const;
    const persona = { provider: 'openai', model: 'gpt-persona' } as const;

    expect(resolveModel({ persona, game, env: BOTH })).toEqual({ provider: 'openai', model: 'gpt-persona', source: 'persona' });
    expect(resolveModel({ game, env: BOTH })).toEqual({ provider: 'anthropic', model: 'claude-game', source: 'game' });
    expect(resolveModel({ persona: {}, game: {}, env: BOTH })).toEqual({ provider: 'openai', model: 'gpt-env', source: 'env' });
  });

  it('GIVEN a persona naming only a model WHEN resolved THEN it is that model on the provider chosen below it', () => {
    expect(resolveModel({ persona: { model: 'claude-persona' }, game: { provider: 'anthropic' }, env: BOTH })).toEqual({
      provider: 'anthropic',
      model: 'claude-persona',
      source: 'persona',
    });
  });

  it('GIVEN a persona naming only a provider WHEN resolved THEN the model is the game’s for that provider, else the environment’s', () => {
    expect(resolveModel({ persona: { provider: 'anthropic' }, game: { provider: 'openai', model: 'gpt-game' }, env: BOTH })).toEqual({
      provider: 'anthropic',
      model: 'claude-env',
      source: 'env',
    });
    expect(resolveModel({ persona: { provider: 'anthropic' }, game: { model: 'claude-game' }, env: BOTH })).toEqual({
      provider: 'anthropic',
      model: 'claude-game',
      source: 'game',
    });
  });

  it('GIVEN a persona preferring Claude WHEN the bot has no Anthropic key THEN the persona plays on the configured provider', () => {
    expect(resolveModel({ persona: { provider: 'anthropic', model: 'claude-opus' }, env: OPENAI_ONLY })).toEqual({
      provider: 'openai',
      model: 'gpt-env',
      source: 'env',
    });
  });

  it('GIVEN a game set to offline WHEN resolved THEN every seat without its own choice plays offline', () => {
    expect(resolveModel({ game: { provider: 'offline' }, env: BOTH })).toEqual({ provider: 'offline', model: 'heuristic', source: 'game' });
    expect(resolveModel({ persona: { provider: 'openai' }, game: { provider: 'offline' }, env: BOTH })).toEqual({
      provider: 'openai',
      model: 'gpt-env',
      source: 'env',
    });
  });

  it('GIVEN a model gone from its provider WHEN the setting to change is named THEN it is the level that chose it', () => {
    expect(modelSetting('openai', 'env')).toBe('OPENAI_MODEL');
    expect(modelSetting('anthropic', 'env')).toBe('ANTHROPIC_MODEL');
    expect(modelSetting('anthropic', 'persona')).toBe("the persona's model (`/persona edit`)");
    expect(modelSetting('openai', 'game')).toBe("the game's model option");
  });
});

describe('createProvider', () => {
  let fake: FakeLlmServer | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  it('GIVEN OPENAI_BASE_URL alone (a local server) WHEN created THEN the provider talks to that server', async () => {
    fake = await startFakeOpenAi([reply.text('Hello from a local model.')]);
    const created = createProvider('openai', llmConfig({ OPENAI_BASE_URL: fake.baseURL }));
    expect(created.ok).toBe(true);
    if (!created.ok) return;

    const result = await created.value.complete({
      model: 'llama3',
      system: { stable: 'Be brief.' },
      messages: [{ role: 'user', content: 'Hi' }],
    });

    expect(result.ok && result.value.text).toBe('Hello from a local model.');
    expect(fake.last.model).toBe('llama3');
  });

  it('GIVEN ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL WHEN created THEN the provider sends the key to that server', async () => {
    fake = await startFakeAnthropic([reply.text('Hello.')]);
    const created = createProvider('anthropic', llmConfig({ ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.baseURL }));
    if (!created.ok) throw new Error(created.error);

    const result = await created.value.complete({
      model: 'claude-x',
      system: { stable: 'Be brief.' },
      messages: [{ role: 'user', content: 'Hi' }],
    });

    expect(result.ok && result.value.text).toBe('Hello.');
    // SDK 1.x sends the key as a bearer token, not in x-api-key.
    expect(fake.last.headers['authorization']).toBe('Bearer sk-ant-test');
  });

  it('GIVEN no Anthropic key WHEN an Anthropic provider is asked for THEN the error says what is missing', () => {
    expect(createProvider('anthropic', OPENAI_ONLY)).toEqual({ ok: false, error: 'anthropic needs ANTHROPIC_API_KEY' });
  });
});
