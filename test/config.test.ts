import { readFileSync } from 'node:fs';
import { parse } from 'dotenv';
import { describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../src/config.ts';

function configOf(env: Record<string, string>): Config {
  const result = loadConfig(env);
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

function errorOf(env: Record<string, string>): string {
  const result = loadConfig(env);
  if (result.ok) throw new Error('expected the configuration to be refused');
  return result.error;
}

describe('loadConfig', () => {
  it('GIVEN an empty environment WHEN loaded THEN it uses embedded PGlite in ./data/pglite, LOG_LEVEL info, and offline AI players', () => {
    expect(loadConfig({})).toEqual({
      ok: true,
      value: {
        database: { kind: 'pglite', dataDir: './data/pglite' },
        migrateOnStart: true,
        gameWritesWaitForDisk: false,
        sharding: { role: 'single' },
        logLevel: 'info',
        llm: {
          provider: 'offline',
          openai: { apiKey: undefined, baseURL: undefined, model: 'gpt-6-luna' },
          anthropic: { apiKey: undefined, baseURL: undefined, model: 'claude-sonnet-5-5' },
          timeoutMs: 60_000,
          maxToolRounds: 4,
          dailyTokenBudget: 2_000_000,
          dmDailyTokenBudget: 500_000,
          userDailyTokenBudget: 200_000,
          serverDailyDollarBudget: 10,
          dmDailyDollarBudget: 5,
          userDailyDollarBudget: 2,
        },
        editor: { provider: 'anthropic', model: 'claude-sonnet-5-5', maxRounds: 10, historyTurns: 60 },
        lobbies: { idleMinutes: 60, perHost: 3 },
        personaCaps: { perUser: 50, perServer: 500 },
        discord: { token: undefined, devGuildId: undefined, apiUrl: undefined },
        interactionTrace: false,
      },
    });
  });

  it('GIVEN INTERACTION_TRACE=true WHEN loaded THEN the trace is on; with LOG_LEVEL=warn, which would drop its lines, it is refused', () => {
    expect(configOf({ INTERACTION_TRACE: 'true' }).interactionTrace).toBe(true);
    expect(configOf({ INTERACTION_TRACE: 'false' }).interactionTrace).toBe(false);
    expect(errorOf({ INTERACTION_TRACE: 'yes' })).toMatch(/INTERACTION_TRACE[\s\S]*expected true or false/);
    expect(errorOf({ INTERACTION_TRACE: 'true', LOG_LEVEL: 'warn' })).toMatch(/INTERACTION_TRACE[\s\S]*LOG_LEVEL=info/);
  });

  it('GIVEN LOG_LEVEL=verbose WHEN loaded THEN the error names LOG_LEVEL and the accepted levels', () => {
    const result = loadConfig({ LOG_LEVEL: 'verbose' });

    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toContain('LOG_LEVEL');
    expect(result.error).toContain('debug, info, warn, error');
  });

  it('GIVEN empty values as a .env file writes them WHEN loaded THEN they count as unset', () => {
    expect(loadConfig({ LOG_LEVEL: '', DATABASE_URL: '' })).toMatchObject({
      ok: true,
      value: { database: { kind: 'pglite' }, logLevel: 'info' },
    });
  });

  describe('DATABASE_URL modes', () => {
    it.each([
      ['memory', { kind: 'memory' }],
      ['postgres://bot:pw@db:5432/dramatis', { kind: 'postgres', url: 'postgres://bot:pw@db:5432/dramatis' }],
      ['postgresql://db/dramatis', { kind: 'postgres', url: 'postgresql://db/dramatis' }],
      ['./var/games', { kind: 'pglite', dataDir: './var/games' }],
      ['file:./var/games', { kind: 'pglite', dataDir: './var/games' }],
      ['file:///srv/dramatis', { kind: 'pglite', dataDir: '/srv/dramatis' }],
    ])('GIVEN DATABASE_URL=%s WHEN loaded THEN the target is %j', (url, database) => {
      expect(loadConfig({ DATABASE_URL: url })).toMatchObject({ ok: true, value: { database } });
    });

    it('GIVEN a URL for another database WHEN loaded THEN the error names DATABASE_URL without echoing the secret', () => {
      const result = loadConfig({ DATABASE_URL: 'mysql://root:hunter2@db/dramatis' });

      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error).toContain('DATABASE_URL');
      expect(result.error).toContain('postgres://');
      expect(result.error).not.toContain('hunter2');
    });
  });

  it('GIVEN several bad settings WHEN loaded THEN every one is reported', () => {
    const result = loadConfig({ LOG_LEVEL: 'loud', DATABASE_URL: 'redis://x' });

    expect(result.ok ? '' : result.error).toMatch(/DATABASE_URL[\s\S]*LOG_LEVEL|LOG_LEVEL[\s\S]*DATABASE_URL/);
  });

  describe('LLM settings', () => {
    it.each([
      [{ OPENAI_API_KEY: 'sk-test' }, 'openai'],
      [{ OPENAI_BASE_URL: 'http://localhost:11434/v1' }, 'openai'],
      [{ ANTHROPIC_API_KEY: 'sk-ant-test' }, 'anthropic'],
      [{ OPENAI_API_KEY: 'sk-test', ANTHROPIC_API_KEY: 'sk-ant-test' }, 'openai'],
      [{ OPENAI_API_KEY: 'sk-test', LLM_PROVIDER: 'offline' }, 'offline'],
      [{ OPENAI_API_KEY: 'sk-test', ANTHROPIC_API_KEY: 'sk-ant-test', LLM_PROVIDER: 'anthropic' }, 'anthropic'],
    ] as const)('GIVEN %j WHEN loaded THEN the default provider is %s', (env, provider) => {
      expect(configOf(env).llm.provider).toBe(provider);
    });

    it('GIVEN every LLM setting WHEN loaded THEN each lands in config.llm', () => {
      const llm = configOf({
        LLM_PROVIDER: 'openai',
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: 'https://openrouter.ai/api/v1',
        OPENAI_MODEL: 'meta-llama/llama-3.3-70b-instruct',
        ANTHROPIC_API_KEY: 'sk-ant-test',
        ANTHROPIC_BASE_URL: 'https://proxy.example/anthropic',
        ANTHROPIC_MODEL: 'claude-opus-4-1',
        LLM_TIMEOUT_MS: '90000',
        LLM_MAX_TOOL_ROUNDS: '0',
        DAILY_TOKEN_BUDGET: '0',
        DM_DAILY_TOKEN_BUDGET: '1000',
        USER_DAILY_TOKEN_BUDGET: '0',
        SERVER_DAILY_DOLLAR_BUDGET: '2.50',
        DM_DAILY_DOLLAR_BUDGET: '0',
        USER_DAILY_DOLLAR_BUDGET: '0.75',
      }).llm;

      expect(llm).toEqual({
        provider: 'openai',
        openai: { apiKey: 'sk-test', baseURL: 'https://openrouter.ai/api/v1', model: 'meta-llama/llama-3.3-70b-instruct' },
        anthropic: { apiKey: 'sk-ant-test', baseURL: 'https://proxy.example/anthropic', model: 'claude-opus-4-1' },
        timeoutMs: 90_000,
        maxToolRounds: 0,
        dailyTokenBudget: 0,
        dmDailyTokenBudget: 1000,
        userDailyTokenBudget: 0,
        serverDailyDollarBudget: 2.5,
        dmDailyDollarBudget: 0,
        userDailyDollarBudget: 0.75,
      });
    });

    it('GIVEN LLM_PROVIDER=openai without a key or base URL WHEN loaded THEN the error says to add OPENAI_API_KEY or OPENAI_BASE_URL', () => {
      const error = errorOf({ LLM_PROVIDER: 'openai', ANTHROPIC_API_KEY: 'sk-ant-secret' });

      expect(error).toContain('LLM_PROVIDER');
      expect(error).toContain('OPENAI_API_KEY');
      expect(error).toContain('OPENAI_BASE_URL');
      expect(error).not.toContain('sk-ant-secret');
    });

    it('GIVEN LLM_PROVIDER=anthropic without a key WHEN loaded THEN the error says to add ANTHROPIC_API_KEY', () => {
      expect(errorOf({ LLM_PROVIDER: 'anthropic', OPENAI_API_KEY: 'sk-test' })).toMatch(/LLM_PROVIDER: anthropic needs ANTHROPIC_API_KEY/);
    });

    it('GIVEN LLM_PROVIDER=openai with only a local base URL WHEN loaded THEN it is accepted', () => {
      expect(configOf({ LLM_PROVIDER: 'openai', OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1' }).llm.provider).toBe('openai');
    });

    it.each([
      ['LLM_PROVIDER', 'gemini', 'openai, anthropic, offline'],
      ['OPENAI_BASE_URL', 'localhost:11434', 'http:// or https:// URL'],
      ['ANTHROPIC_BASE_URL', 'ftp://proxy', 'http:// or https:// URL'],
      ['LLM_TIMEOUT_MS', '60', 'at least 1000'],
      ['LLM_TIMEOUT_MS', '1.5e4', 'whole number'],
      ['LLM_MAX_TOOL_ROUNDS', '50', 'from 0 to 20'],
      ['DAILY_TOKEN_BUDGET', '-1', '0 means unlimited'],
      ['DAILY_TOKEN_BUDGET', 'lots', 'whole number'],
      ['USER_DAILY_TOKEN_BUDGET', '-5', '0 means unlimited'],
      ['SERVER_DAILY_DOLLAR_BUDGET', '$5', 'expected US dollars, e.g. 5 or 2.50'],
      ['USER_DAILY_DOLLAR_BUDGET', '-1', 'expected US dollars'],
      ['DM_DAILY_DOLLAR_BUDGET', 'lots', '0 means unlimited'],
      ['PERSONAS_PER_USER', '-1', 'personas (0 means no cap)'],
      ['PERSONAS_PER_SERVER', 'many', 'whole number'],
    ])('GIVEN %s=%s WHEN loaded THEN the error names the variable and expects %s', (name, value, expected) => {
      const error = errorOf({ [name]: value });

      expect(error).toContain(`${name}: `);
      expect(error).toContain(expected);
    });
  });

  it('GIVEN .env.example as shipped WHEN loaded THEN it is valid and mentions every LLM setting', () => {
    const example = readFileSync(new URL('../.env.example', import.meta.url), 'utf8');

    expect(loadConfig(parse(example)).ok).toBe(true);
    for (const name of [
      'LLM_PROVIDER',
      'OPENAI_API_KEY',
      'OPENAI_BASE_URL',
      'OPENAI_MODEL',
      'ANTHROPIC_API_KEY',
      'ANTHROPIC_BASE_URL',
      'ANTHROPIC_MODEL',
      'LLM_TIMEOUT_MS',
      'LLM_MAX_TOOL_ROUNDS',
      'DAILY_TOKEN_BUDGET',
      'ALLOWED_MODELS',
      'DM_DAILY_TOKEN_BUDGET',
      'USER_DAILY_TOKEN_BUDGET',
      'SERVER_DAILY_DOLLAR_BUDGET',
      'DM_DAILY_DOLLAR_BUDGET',
      'USER_DAILY_DOLLAR_BUDGET',
      'LOBBY_IDLE_MINUTES',
      'LOBBIES_PER_HOST',
      'PERSONAS_PER_USER',
      'PERSONAS_PER_SERVER',
    ]) {
      expect(example).toContain(`\n${name}=`);
    }
  });

  it('GIVEN ALLOWED_MODELS as a comma-separated list WHEN loaded THEN the models are its trimmed entries; unset, there is no list', () => {
    expect(configOf({ ALLOWED_MODELS: ' gpt-6-luna, claude-haiku-5-5 ,,' }).llm.allowedModels).toEqual(['gpt-6-luna', 'claude-haiku-5-5']);
    expect(configOf({}).llm.allowedModels).toBeUndefined();
    expect(configOf({ ALLOWED_MODELS: '' }).llm.allowedModels).toBeUndefined();
  });

  it('GIVEN PERSONAS_PER_USER and PERSONAS_PER_SERVER WHEN loaded THEN they are the persona caps, 0 meaning none', () => {
    expect(configOf({ PERSONAS_PER_USER: '5', PERSONAS_PER_SERVER: '0' }).personaCaps).toEqual({ perUser: 5, perServer: 0 });
  });

  it('GIVEN EDITOR_PROVIDER=openai without EDITOR_MODEL WHEN loaded THEN the editor uses OPENAI_MODEL, and a bad provider is named in the error', () => {
    const loaded = loadConfig({ EDITOR_PROVIDER: 'openai', OPENAI_MODEL: 'gpt-editor', EDITOR_MAX_ROUNDS: '3' });
    expect(loaded.ok && loaded.value.editor).toEqual({ provider: 'openai', model: 'gpt-editor', maxRounds: 3, historyTurns: 60 });
    const named = loadConfig({ EDITOR_MODEL: 'claude-opus' });
    expect(named.ok && named.value.editor.model).toBe('claude-opus');
    const bad = loadConfig({ EDITOR_PROVIDER: 'gemini' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toContain('EDITOR_PROVIDER: expected one of anthropic, openai');
  });

  it('GIVEN LOBBY_IDLE_MINUTES and LOBBIES_PER_HOST WHEN loaded THEN lobbies use them, and values out of range are refused by name', () => {
    expect(configOf({ LOBBY_IDLE_MINUTES: '15', LOBBIES_PER_HOST: '1' }).lobbies).toEqual({ idleMinutes: 15, perHost: 1 });
    expect(configOf({ LOBBY_IDLE_MINUTES: '', LOBBIES_PER_HOST: '' }).lobbies).toEqual({ idleMinutes: 60, perHost: 3 });
    expect(errorOf({ LOBBY_IDLE_MINUTES: '0' })).toContain(
      'LOBBY_IDLE_MINUTES: expected a whole number of minutes (a week at most), from 1 to 10080',
    );
    expect(errorOf({ LOBBY_IDLE_MINUTES: 'an hour' })).toContain('LOBBY_IDLE_MINUTES: expected a whole number');
    expect(errorOf({ LOBBIES_PER_HOST: '0' })).toContain('LOBBIES_PER_HOST: expected a whole number of lobbies, from 1 to 100');
    expect(errorOf({ LOBBIES_PER_HOST: '2.5' })).toContain('LOBBIES_PER_HOST');
  });

  describe('sharding (SHARDS, SHARD_IDS, SHARD_COUNT)', () => {
    const server = { DATABASE_URL: 'postgres://bot:pw@db:5432/dramatis' };

    it.each([
      [{}, { role: 'single' }],
      [{ SHARDS: '1' }, { role: 'single' }],
      [
        { ...server, SHARDS: '4' },
        { role: 'manager', count: 4, ids: 'all' },
      ],
      [
        { ...server, SHARDS: 'auto' },
        { role: 'manager', count: 'auto', ids: 'all' },
      ],
      [
        { ...server, SHARDS: '8', SHARD_IDS: '0-3', SHARD_COUNT: '8' },
        { role: 'manager', count: 8, ids: [0, 1, 2, 3] },
      ],
      [
        { ...server, SHARD_IDS: '1', SHARD_COUNT: '2' },
        { role: 'shards', ids: [1], count: 2, spawned: false },
      ],
      [
        { ...server, SHARD_IDS: '0,2,5', SHARD_COUNT: '6' },
        { role: 'shards', ids: [0, 2, 5], count: 6, spawned: false },
      ],
      [
        { ...server, SHARD_IDS: '4-5,0', SHARD_COUNT: '6' },
        { role: 'shards', ids: [0, 4, 5], count: 6, spawned: false },
      ],
      // One process serving every shard needs no server.
      [
        { SHARD_IDS: '0-1', SHARD_COUNT: '2' },
        { role: 'shards', ids: [0, 1], count: 2, spawned: false },
      ],
    ])('GIVEN %o WHEN loaded THEN this process is %o', (env, expected) => {
      expect(configOf(env).sharding).toEqual(expected);
    });

    it("GIVEN the environment discord.js's ShardingManager gives a shard WHEN loaded THEN it serves that shard and does not migrate (the manager did)", () => {
      // The operator's own SHARDS=2 and SHARD_IDS are inherited; discord.js overwrites SHARDS with the shard's id.
      const config = configOf({ ...server, SHARDING_MANAGER: 'true', SHARDS: '1', SHARD_COUNT: '2', SHARD_IDS: '0-1' });
      expect(config.sharding).toEqual({ role: 'shards', ids: [1], count: 2, spawned: true });
      expect(config.migrateOnStart).toBe(false);
    });

    it('GIVEN MIGRATE_ON_START=false WHEN loaded THEN the bot does not migrate at start', () => {
      expect(configOf({ MIGRATE_ON_START: 'false' }).migrateOnStart).toBe(false);
      expect(errorOf({ MIGRATE_ON_START: 'no' })).toContain('MIGRATE_ON_START: expected true or false');
    });

    it('GIVEN GAME_WRITES_WAIT_FOR_DISK unset or true WHEN loaded THEN game writes wait for the server memory by default, for its disk when asked', () => {
      expect(configOf({}).gameWritesWaitForDisk).toBe(false);
      expect(configOf({ GAME_WRITES_WAIT_FOR_DISK: 'true' }).gameWritesWaitForDisk).toBe(true);
      expect(errorOf({ GAME_WRITES_WAIT_FOR_DISK: 'yes' })).toContain('GAME_WRITES_WAIT_FOR_DISK: expected true or false');
    });

    it.each([
      [
        { SHARDS: '2' },
        'DATABASE_URL: more than one shard process needs a PostgreSQL server that every process reaches: set DATABASE_URL=postgres://',
      ],
      [{ SHARDS: 'auto', DATABASE_URL: 'memory' }, 'DATABASE_URL: more than one shard process needs a PostgreSQL server'],
      [{ SHARD_IDS: '1', SHARD_COUNT: '2' }, 'DATABASE_URL: more than one shard process needs a PostgreSQL server'],
      [{ ...server, SHARDS: 'two' }, 'SHARDS: expected a number of shards (1 or more) or auto'],
      [{ ...server, SHARDS: '0' }, 'SHARDS: expected a number of shards (1 or more) or auto'],
      [{ ...server, SHARD_IDS: '0-3' }, 'SHARD_COUNT: SHARD_IDS needs SHARD_COUNT'],
      [{ ...server, SHARD_COUNT: '4' }, 'SHARD_IDS: SHARD_COUNT goes with SHARD_IDS'],
      [{ ...server, SHARD_IDS: '3-5', SHARD_COUNT: '4' }, 'SHARD_IDS: shard 4, 5 does not exist'],
      [{ ...server, SHARD_IDS: '3-1', SHARD_COUNT: '4' }, 'SHARD_IDS: expected shard ids as a range or a list, e.g. 0-3 or 0,2,5'],
      [{ ...server, SHARDS: 'auto', SHARD_IDS: '0', SHARD_COUNT: '2' }, 'SHARDS: a machine'],
      [{ ...server, SHARDS: '1', SHARD_IDS: '0', SHARD_COUNT: '2' }, 'SHARDS: SHARDS=1 runs the whole bot in one process'],
      [{ ...server, SHARDS: '4', SHARD_IDS: '0', SHARD_COUNT: '8' }, 'SHARDS: SHARDS and SHARD_COUNT disagree'],
    ])('GIVEN %o WHEN loaded THEN it is refused: %s', (env, message) => {
      expect(errorOf(env)).toContain(message);
    });
  });
});
