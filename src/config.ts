import { z } from 'zod';
import { DATABASE_URL_EXPECTED, parseDatabaseUrl, type DatabaseTarget } from './database-url.ts';
import { DEFAULT_MODELS } from './models.ts';
import { err, ok, type Result } from './result.ts';

const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const LLM_PROVIDERS = ['openai', 'anthropic', 'offline'] as const;
export type LlmProviderSetting = (typeof LLM_PROVIDERS)[number];

const DEFAULT_OPENAI_MODEL = DEFAULT_MODELS.openai;
const DEFAULT_ANTHROPIC_MODEL = DEFAULT_MODELS.anthropic;

interface ProviderSettings {
  apiKey: string | undefined;
  baseURL: string | undefined;
  /** The model when neither the persona nor the game names one. */
  model: string;
}

export interface LlmConfig {
  /** LLM_PROVIDER, else openai when it has a key or base URL, else anthropic when it has a key, else offline. */
  provider: LlmProviderSetting;
  openai: ProviderSettings;
  anthropic: ProviderSettings;
  /** Per attempt of a model call; failed attempts are retried (three in all) while the phase leaves time. */
  timeoutMs: number;
  maxToolRounds: number;
  /** Tokens per Discord server per day; 0 means unlimited. */
  dailyTokenBudget: number;
  /** Tokens per day for every call made in DMs together (DM_DAILY_TOKEN_BUDGET); absent or 0: unlimited. */
  dmDailyTokenBudget?: number;
  /** Tokens per person per day, across servers and DMs (USER_DAILY_TOKEN_BUDGET); a game's AI seats never count. Absent or 0: unlimited. */
  userDailyTokenBudget?: number;
  /** USD at list price per day: per server, for DMs together, per person (*_DAILY_DOLLAR_BUDGET); absent or 0: unlimited. */
  serverDailyDollarBudget?: number;
  dmDailyDollarBudget?: number;
  userDailyDollarBudget?: number;
  /** ALLOWED_MODELS: the models personas and games may name besides the configured ones; absent, those no dearer (`src/llm/allowed-models.ts`). */
  allowedModels?: readonly string[];
}

const EDITOR_PROVIDERS = ['anthropic', 'openai'] as const;

/** The persona editor agent (issue #6); it uses that provider's key and base URL from `llm`. */
export interface EditorConfig {
  /** EDITOR_PROVIDER, default anthropic. Without that provider's key the editor says no model is configured. */
  provider: (typeof EDITOR_PROVIDERS)[number];
  /** EDITOR_MODEL, else the provider's model (ANTHROPIC_MODEL / OPENAI_MODEL). */
  model: string;
  /** Model calls per message before the agent must answer without tools. */
  maxRounds: number;
  /** Turns the model sees in full; older ones reach it as a summary. */
  historyTurns: number;
}

/** Lobbies (issue 26): one member cannot hold a lobby in every channel they can post in. */
export interface LobbyConfig {
  /** A lobby with no activity (a seat taken or given up, anything said in it) for this long closes. */
  idleMinutes: number;
  /** Open lobbies one person may host at once, across every channel and server. */
  perHost: number;
}

const LOBBY_IDLE_MINUTES = 60;
const LOBBIES_PER_HOST = 3;

/** What the bot uses when no configuration is handed to it (tests, tools): the schema's defaults. */
export const DEFAULT_LOBBIES: LobbyConfig = { idleMinutes: LOBBY_IDLE_MINUTES, perHost: LOBBIES_PER_HOST };
/** How many personas may be stored (issue 26); 0 means no cap. Built-in personas never count. */
export interface PersonaCaps {
  /** Every persona one person owns, whatever its scope. */
  readonly perUser: number;
  /** The personas of one server (scope `server`). */
  readonly perServer: number;
}

export const DEFAULT_PERSONA_CAPS: PersonaCaps = { perUser: 50, perServer: 500 };

interface DiscordConfig {
  /** Unset: `npm start` stops and says how to get one. */
  token: string | undefined;
  /** Commands are registered in this server only (instant updates while developing). */
  devGuildId: string | undefined;
  /** REST base override (a self-hosted proxy, or the simulator in tests). */
  apiUrl: string | undefined;
}

/**
 * Which shards of the bot this process serves (issue 14). `single`: the whole bot, shard 0 of 1.
 * `manager`: spawns one process per shard (discord.js's ShardingManager) and serves none itself.
 * `shards`: serves these shards of `count`, spawned by a manager or started by the operator (SHARD_IDS).
 */
export type ShardingConfig =
  | { readonly role: 'single' }
  | { readonly role: 'manager'; readonly count: number | 'auto'; readonly ids: readonly number[] | 'all' }
  | { readonly role: 'shards'; readonly ids: readonly number[]; readonly count: number; readonly spawned: boolean };

export interface Config {
  database: DatabaseTarget;
  /** `prisma migrate deploy` at start-up (MIGRATE_ON_START, default on); a manager's shards never migrate, it did. */
  migrateOnStart: boolean;
  /** GAME_WRITES_WAIT_FOR_DISK (default off): each game append waits for the server's disk, not only its memory. */
  gameWritesWaitForDisk: boolean;
  sharding: ShardingConfig;
  logLevel: LogLevel;
  llm: LlmConfig;
  editor: EditorConfig;
  lobbies: LobbyConfig;
  personaCaps: PersonaCaps;
  discord: DiscordConfig;
  /** INTERACTION_TRACE: log, at info level, the moment each interaction reaches the router (what `npm run bench:discord` reads). */
  interactionTrace: boolean;
}

const SHARDS_EXPECTED = 'expected a number of shards (1 or more) or auto';

// One schema for every setting: add a key here (and to .env.example and docs/operators.md, Configuration).
// Messages never echo values, because later settings are secrets.
const EnvSchema = z
  .object({
    DATABASE_URL: z
      .string()
      .optional()
      .transform((raw, ctx): DatabaseTarget => {
        const target = parseDatabaseUrl(raw);
        if (target !== null) return target;
        ctx.addIssue({ code: 'custom', message: `expected ${DATABASE_URL_EXPECTED}` });
        return z.NEVER;
      }),
    LOG_LEVEL: z.enum(LOG_LEVELS, { error: `expected one of ${LOG_LEVELS.join(', ')}` }).default('info'),
    LLM_PROVIDER: z.enum(LLM_PROVIDERS, { error: `expected one of ${LLM_PROVIDERS.join(', ')}` }).optional(),
    OPENAI_API_KEY: z.string().optional(),
    OPENAI_BASE_URL: httpUrl().optional(),
    OPENAI_MODEL: z.string().default(DEFAULT_OPENAI_MODEL),
    ANTHROPIC_API_KEY: z.string().optional(),
    ANTHROPIC_BASE_URL: httpUrl().optional(),
    ANTHROPIC_MODEL: z.string().default(DEFAULT_ANTHROPIC_MODEL),
    LLM_TIMEOUT_MS: wholeNumber({ min: 1000, unit: 'milliseconds (e.g. 60000)' }).default(60_000),
    LLM_MAX_TOOL_ROUNDS: wholeNumber({ min: 0, max: 20, unit: 'rounds' }).default(4),
    DAILY_TOKEN_BUDGET: wholeNumber({ min: 0, unit: 'tokens (0 means unlimited)' }).default(2_000_000),
    DM_DAILY_TOKEN_BUDGET: wholeNumber({ min: 0, unit: 'tokens (0 means unlimited)' }).default(500_000),
    USER_DAILY_TOKEN_BUDGET: wholeNumber({ min: 0, unit: 'tokens (0 means unlimited)' }).default(200_000),
    SERVER_DAILY_DOLLAR_BUDGET: dollars().default(10),
    DM_DAILY_DOLLAR_BUDGET: dollars().default(5),
    USER_DAILY_DOLLAR_BUDGET: dollars().default(2),
    ALLOWED_MODELS: z
      .string()
      .transform((raw) =>
        raw
          .split(',')
          .map((id) => id.trim())
          .filter((id) => id !== ''),
      )
      .optional(),
    EDITOR_PROVIDER: z.enum(EDITOR_PROVIDERS, { error: `expected one of ${EDITOR_PROVIDERS.join(', ')}` }).default('anthropic'),
    EDITOR_MODEL: z.string().optional(),
    EDITOR_MAX_ROUNDS: wholeNumber({ min: 1, max: 30, unit: 'rounds' }).default(10),
    EDITOR_HISTORY_TURNS: wholeNumber({ min: 4, max: 500, unit: 'turns' }).default(60),
    LOBBY_IDLE_MINUTES: wholeNumber({ min: 1, max: 10_080, unit: 'minutes (a week at most)' }).default(LOBBY_IDLE_MINUTES),
    LOBBIES_PER_HOST: wholeNumber({ min: 1, max: 100, unit: 'lobbies' }).default(LOBBIES_PER_HOST),
    PERSONAS_PER_USER: wholeNumber({ min: 0, unit: 'personas (0 means no cap)' }).default(DEFAULT_PERSONA_CAPS.perUser),
    PERSONAS_PER_SERVER: wholeNumber({ min: 0, unit: 'personas (0 means no cap)' }).default(DEFAULT_PERSONA_CAPS.perServer),
    DISCORD_TOKEN: z.string().optional(),
    DEV_GUILD_ID: z
      .string()
      .regex(/^\d{17,20}$/, 'expected a server id (17–20 digits; Developer Mode → right-click the server → Copy Server ID)')
      .optional(),
    DISCORD_API_URL: httpUrl().optional(),
    MIGRATE_ON_START: z.enum(['true', 'false'], { error: 'expected true or false' }).default('true'),
    GAME_WRITES_WAIT_FOR_DISK: z.enum(['true', 'false'], { error: 'expected true or false' }).default('false'),
    INTERACTION_TRACE: z.enum(['true', 'false'], { error: 'expected true or false' }).default('false'),
    SHARDS: z
      .string()
      .regex(/^(auto|\d+)$/, SHARDS_EXPECTED)
      .optional(),
    SHARD_IDS: z
      .string()
      .transform((raw, ctx) => {
        const ids = parseShardIds(raw);
        if (ids !== null) return ids;
        ctx.addIssue({ code: 'custom', message: 'expected shard ids as a range or a list, e.g. 0-3 or 0,2,5' });
        return z.NEVER;
      })
      .optional(),
    SHARD_COUNT: wholeNumber({ min: 1, unit: 'shards across every machine' }).optional(),
    // Set by discord.js's ShardingManager in the processes it spawns (SHARDS is then their shard id).
    SHARDING_MANAGER: z.string().optional(),
  })
  .superRefine((env, ctx) => {
    for (const issue of shardingIssues(env)) ctx.addIssue({ code: 'custom', ...issue });
    if (env.INTERACTION_TRACE === 'true' && (env.LOG_LEVEL === 'warn' || env.LOG_LEVEL === 'error')) {
      ctx.addIssue({
        code: 'custom',
        path: ['INTERACTION_TRACE'],
        message:
          'the trace is logged at info level, which LOG_LEVEL warn and error drop: set LOG_LEVEL=info (or debug), or leave INTERACTION_TRACE unset',
      });
    }
    // A provider chosen on purpose must be usable: say what is missing now, not at the first game.
    if (env.LLM_PROVIDER === 'openai' && env.OPENAI_API_KEY === undefined && env.OPENAI_BASE_URL === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['LLM_PROVIDER'],
        message:
          'openai needs OPENAI_API_KEY (or OPENAI_BASE_URL for a local OpenAI-compatible server); add one, or set LLM_PROVIDER=offline',
      });
    }
    if (env.LLM_PROVIDER === 'anthropic' && env.ANTHROPIC_API_KEY === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['LLM_PROVIDER'],
        message: 'anthropic needs ANTHROPIC_API_KEY; add it, or set LLM_PROVIDER=offline',
      });
    }
  })
  .transform((env): Config => ({
    database: env.DATABASE_URL,
    migrateOnStart: env.MIGRATE_ON_START === 'true' && !spawnedByManager(env),
    gameWritesWaitForDisk: env.GAME_WRITES_WAIT_FOR_DISK === 'true',
    sharding: sharding(env),
    logLevel: env.LOG_LEVEL,
    llm: {
      provider: env.LLM_PROVIDER ?? defaultProvider(env),
      openai: { apiKey: env.OPENAI_API_KEY, baseURL: env.OPENAI_BASE_URL, model: env.OPENAI_MODEL },
      anthropic: { apiKey: env.ANTHROPIC_API_KEY, baseURL: env.ANTHROPIC_BASE_URL, model: env.ANTHROPIC_MODEL },
      timeoutMs: env.LLM_TIMEOUT_MS,
      maxToolRounds: env.LLM_MAX_TOOL_ROUNDS,
      dailyTokenBudget: env.DAILY_TOKEN_BUDGET,
      dmDailyTokenBudget: env.DM_DAILY_TOKEN_BUDGET,
      userDailyTokenBudget: env.USER_DAILY_TOKEN_BUDGET,
      serverDailyDollarBudget: env.SERVER_DAILY_DOLLAR_BUDGET,
      dmDailyDollarBudget: env.DM_DAILY_DOLLAR_BUDGET,
      userDailyDollarBudget: env.USER_DAILY_DOLLAR_BUDGET,
      ...(env.ALLOWED_MODELS !== undefined && { allowedModels: env.ALLOWED_MODELS }),
    },
    editor: {
      provider: env.EDITOR_PROVIDER,
      model: env.EDITOR_MODEL ?? (env.EDITOR_PROVIDER === 'openai' ? env.OPENAI_MODEL : env.ANTHROPIC_MODEL),
      maxRounds: env.EDITOR_MAX_ROUNDS,
      historyTurns: env.EDITOR_HISTORY_TURNS,
    },
    lobbies: { idleMinutes: env.LOBBY_IDLE_MINUTES, perHost: env.LOBBIES_PER_HOST },
    personaCaps: { perUser: env.PERSONAS_PER_USER, perServer: env.PERSONAS_PER_SERVER },
    discord: { token: env.DISCORD_TOKEN?.trim(), devGuildId: env.DEV_GUILD_ID, apiUrl: env.DISCORD_API_URL },
    interactionTrace: env.INTERACTION_TRACE === 'true',
  }));

interface ShardingEnv {
  DATABASE_URL: DatabaseTarget;
  SHARDS?: string | undefined;
  SHARD_IDS?: number[] | undefined;
  SHARD_COUNT?: number | undefined;
  SHARDING_MANAGER?: string | undefined;
}

function spawnedByManager(env: ShardingEnv): boolean {
  return env.SHARDING_MANAGER === 'true';
}

function sharding(env: ShardingEnv): ShardingConfig {
  if (spawnedByManager(env)) {
    // discord.js hands its shards their id(s) as JSON in SHARDS and the total in SHARD_COUNT.
    const ids = z.union([z.number().int(), z.array(z.number().int())]).parse(JSON.parse(env.SHARDS ?? '0'));
    return { role: 'shards', ids: Array.isArray(ids) ? ids : [ids], count: env.SHARD_COUNT ?? 1, spawned: true };
  }
  const shards = env.SHARDS === undefined || env.SHARDS === 'auto' ? env.SHARDS : Number(env.SHARDS);
  if (shards === 'auto' || (shards !== undefined && shards > 1)) {
    return { role: 'manager', count: env.SHARD_COUNT ?? shards, ids: env.SHARD_IDS ?? 'all' };
  }
  if (env.SHARD_IDS !== undefined && env.SHARD_COUNT !== undefined) {
    return { role: 'shards', ids: env.SHARD_IDS, count: env.SHARD_COUNT, spawned: false };
  }
  return { role: 'single' };
}

/** Settings that contradict each other, and several processes on a database only one process can open. */
function shardingIssues(env: ShardingEnv): { path: string[]; message: string }[] {
  // In the processes discord.js spawns, SHARDS is their shard id (0 included), not the operator's count.
  if (spawnedByManager(env)) return [];
  const issues: { path: string[]; message: string }[] = [];
  if (env.SHARDS !== undefined && /^0+$/.test(env.SHARDS)) issues.push({ path: ['SHARDS'], message: SHARDS_EXPECTED });
  if (env.SHARD_IDS !== undefined && env.SHARD_COUNT === undefined) {
    issues.push({ path: ['SHARD_COUNT'], message: 'SHARD_IDS needs SHARD_COUNT, the number of shards across every machine' });
  }
  if (env.SHARD_COUNT !== undefined && env.SHARD_IDS === undefined && env.SHARDS === undefined) {
    issues.push({ path: ['SHARD_IDS'], message: 'SHARD_COUNT goes with SHARD_IDS, the shards this machine runs (e.g. 0-3)' });
  }
  const outside = env.SHARD_IDS?.filter((id) => env.SHARD_COUNT !== undefined && id >= env.SHARD_COUNT) ?? [];
  if (outside.length > 0) {
    issues.push({ path: ['SHARD_IDS'], message: `shard ${outside.join(', ')} does not exist: ids go from 0 to SHARD_COUNT - 1` });
  }
  if (env.SHARDS === '1' && env.SHARD_IDS !== undefined) {
    issues.push({ path: ['SHARDS'], message: 'SHARDS=1 runs the whole bot in one process; with SHARD_IDS leave SHARDS unset' });
  }
  if (env.SHARDS === 'auto' && env.SHARD_IDS !== undefined) {
    issues.push({ path: ['SHARDS'], message: "a machine's SHARD_IDS need a fixed total: set SHARD_COUNT instead of SHARDS=auto" });
  }
  if (env.SHARDS !== undefined && /^\d+$/.test(env.SHARDS) && env.SHARD_COUNT !== undefined && Number(env.SHARDS) !== env.SHARD_COUNT) {
    issues.push({ path: ['SHARDS'], message: 'SHARDS and SHARD_COUNT disagree; set one of them' });
  }
  if (issues.length > 0) return issues;
  const role = sharding(env);
  const severalProcesses = role.role === 'manager' || (role.role === 'shards' && role.ids.length < role.count);
  if (severalProcesses && env.DATABASE_URL.kind !== 'postgres') {
    issues.push({
      path: ['DATABASE_URL'],
      message:
        'more than one shard process needs a PostgreSQL server that every process reaches: set DATABASE_URL=postgres://… (the embedded PGlite database belongs to one process)',
    });
  }
  return issues;
}

/** `0-3`, `0,2,5` or a mix (`0-1,4`): distinct ids in ascending order, or null when malformed. */
function parseShardIds(raw: string): number[] | null {
  const ids = new Set<number>();
  for (const part of raw.split(',').map((p) => p.trim())) {
    const range = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!range) return null;
    const from = Number(range[1]);
    const to = range[2] === undefined ? from : Number(range[2]);
    if (to < from) return null;
    for (let id = from; id <= to; id++) ids.add(id);
  }
  return [...ids].sort((a, b) => a - b);
}

function defaultProvider(env: { OPENAI_API_KEY?: string; OPENAI_BASE_URL?: string; ANTHROPIC_API_KEY?: string }): LlmProviderSetting {
  if (env.OPENAI_API_KEY !== undefined || env.OPENAI_BASE_URL !== undefined) return 'openai';
  if (env.ANTHROPIC_API_KEY !== undefined) return 'anthropic';
  return 'offline';
}

function httpUrl() {
  return z.string().refine((raw) => {
    try {
      return ['http:', 'https:'].includes(new URL(raw).protocol);
    } catch {
      return false;
    }
  }, 'expected an http:// or https:// URL');
}

function wholeNumber({ min, max, unit }: { min: number; max?: number; unit: string }) {
  const range = max === undefined ? `at least ${min}` : `from ${min} to ${max}`;
  return z
    .string()
    .refine((raw) => /^\d+$/.test(raw.trim()) && Number(raw) >= min && (max === undefined || Number(raw) <= max), {
      message: `expected a whole number of ${unit}, ${range}`,
    })
    .transform(Number);
}

/** US dollars, cents allowed (a budget's); 0 means unlimited. */
function dollars() {
  return z
    .string()
    .refine((raw) => /^\d+(\.\d+)?$/.test(raw.trim()), { message: 'expected US dollars, e.g. 5 or 2.50 (0 means unlimited)' })
    .transform(Number);
}

/** Reads settings from an environment (process.env in the app, a literal in tests). */
export function loadConfig(env: Readonly<Record<string, string | undefined>>): Result<Config, string> {
  // `KEY=` in a .env file means "not set", not "set to the empty string".
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = EnvSchema.safeParse(present);
  if (parsed.success) return ok(parsed.data);
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`);
  return err(`Invalid configuration:\n  ${problems.join('\n  ')}`);
}
