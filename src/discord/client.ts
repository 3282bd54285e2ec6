import { Client, GatewayIntentBits, Options, Partials, REST, type RESTOptions } from 'discord.js';
import { Agent } from 'undici';
import { ALL_IN_ONE, type ShardSet } from './shards.ts';

/**
 * The fewest intents the game needs: Guilds (channels, threads, members' permissions),
 * GuildMessages + MessageContent (day chat enters the transcript; MessageContent is privileged
 * and must be enabled in the Developer Portal), DirectMessages (night actions and wills by DM).
 */
const BOT_INTENTS = [
  GatewayIntentBits.Guilds,
  GatewayIntentBits.GuildMessages,
  GatewayIntentBits.MessageContent,
  GatewayIntentBits.DirectMessages,
] as const;

/**
 * DM channels are not cached before their first message arrives; without Channel their messages are
 * dropped. Without Message, discord.js emits messageUpdate and messageDelete only for messages still
 * in its cache (none after a restart, at most 200 a channel): an edit or deletion of day chat would be
 * missed. With it they come as partial messages (a deletion carries only ids, an update what changed).
 */
const BOT_PARTIALS = [Partials.Channel, Partials.Message] as const;

export interface ClientSettings {
  /** REST base (e.g. `http://127.0.0.1:port/api`); unset: Discord itself. */
  readonly apiUrl?: string | undefined;
  /** discord.js's own global cap on REST requests per second (default 50, as Discord allows most bots). */
  readonly globalRequestsPerSecond?: number | undefined;
  /** The shards this client connects (default: the whole bot, shard 0 of 1). */
  readonly shards?: ShardSet | undefined;
}

/**
 * How long an idle connection to Discord is kept for the next request. Discord's API is behind
 * Cloudflare, which keeps an idle HTTP/1.1 connection 400 s; undici's default drops it after 4 s, so
 * every answer after a quiet moment first opened a TCP and TLS connection of its own. A minute stays
 * well inside Cloudflare's limit, so no request goes out on a connection Cloudflare is closing.
 */
const KEEP_ALIVE_MS = 60_000;

/**
 * Connections to Discord, for both REST clients (so the connections the bot's posts keep warm serve
 * its answers too). When every game's night picks are stored in the same statement, their answers
 * leave together: without a bound each one opened a connection of its own (a TLS handshake each),
 * which cost the last of them more than waiting a turn for a warm one. The posts, held to 50 a
 * second, keep only a few of them busy.
 */
const CONNECTIONS = 32;

/** Messages per channel, thread and DM (discord.js's default is 200). */
const MESSAGES_PER_CHANNEL = 100;
/** Messages neither sent nor edited for this long are dropped: longer than any phase (a day lasts at most 2 h). */
const MESSAGE_LIFETIME_S = 3 * 60 * 60;
/** How often the message and thread sweepers run (discord.js's default for threads: archived more than 4 h ago). */
const SWEEP_INTERVAL_S = 60 * 60;
/** Users: everyone who ever clicked or spoke would stay otherwise. The bot's own user is always kept. */
const USERS_KEPT = 10_000;
/** Members per guild; the bot's own member (its permissions) is always kept. */
const MEMBERS_PER_GUILD = 1_000;

/**
 * What discord.js keeps in memory, bounded, since a bot runs for weeks. The bot reads only the
 * guilds, their channels and roles and its own member (permissions) from the caches; whatever else
 * it needs it fetches by id, so what is dropped costs at most a REST call. A finished game's threads
 * and messages are dropped at its end (`finished-game-cache.ts`); these bounds hold the rest.
 * (discord.js does not support bounding its channel, guild and role caches: DM channels stay, one
 * per person the bot has written to, each emptied of its messages at the end of their game.)
 */
const CACHE_LIMITS = Options.cacheWithLimits({
  ...Options.DefaultMakeCacheSettings,
  MessageManager: MESSAGES_PER_CHANNEL,
  UserManager: { maxSize: USERS_KEPT, keepOverLimit: (user) => user.id === user.client.user.id },
  GuildMemberManager: { maxSize: MEMBERS_PER_GUILD, keepOverLimit: (member) => member.id === member.client.user.id },
  // Never read: reactions, presences (no intent), voice, stickers, emojis, invites, bans.
  ReactionManager: 0,
  ReactionUserManager: 0,
  PresenceManager: 0,
  VoiceStateManager: 0,
  GuildStickerManager: 0,
  GuildEmojiManager: 0,
  GuildInviteManager: 0,
  GuildBanManager: 0,
});

const SWEEPERS = {
  ...Options.DefaultSweeperSettings,
  messages: { interval: SWEEP_INTERVAL_S, lifetime: MESSAGE_LIFETIME_S },
};

/**
 * How often discord.js's REST clients drop their idle per-route queues (default: hourly). A queue
 * is kept per channel, per webhook and per interaction token, so a busy hour piles up thousands;
 * one that is not rate limited and has nothing queued is made again when next needed.
 */
const REST_QUEUE_SWEEP_MS = 5 * 60_000;

/** Requests per second for interaction endpoints, which Discord does not hold to the global limit (their own routes' limits still apply). */
const INTERACTION_REQUESTS_PER_SECOND = 10_000;

export function createDiscordClient(settings: ClientSettings = {}): Client {
  const shards = settings.shards ?? ALL_IN_ONE;
  const rest: Partial<RESTOptions> = {
    agent: new Agent({ keepAliveTimeout: KEEP_ALIVE_MS, keepAliveMaxTimeout: KEEP_ALIVE_MS, connections: CONNECTIONS }),
    handlerSweepInterval: REST_QUEUE_SWEEP_MS,
    ...(settings.apiUrl !== undefined && { api: settings.apiUrl }),
    ...(settings.globalRequestsPerSecond !== undefined && { globalRequestsPerSecond: settings.globalRequestsPerSecond }),
  };
  const client = new Client({
    intents: [...BOT_INTENTS],
    partials: [...BOT_PARTIALS],
    // Always given: discord.js otherwise reads SHARDS from the environment, where the operator's
    // SHARDS=auto (our setting, not its shard list) would crash it and SHARDS=1 would mean shard 1.
    shards: [...shards.ids],
    shardCount: shards.count,
    rest,
    makeCache: CACHE_LIMITS,
    sweepers: SWEEPERS,
    // Every send sets its own; this keeps a send that forgets from pinging anyone.
    allowedMentions: { parse: [] },
  });
  answerInteractionsOutsideTheGlobalCap(client, rest);
  return client;
}

/**
 * Discord does not hold interaction endpoints (the callback, and the original response and
 * follow-ups under the application's webhook) to a bot's global rate limit, but discord.js counts
 * them against its global cap like any request: when a busy bot posts 50 messages a second, every
 * acknowledgement waits its turn behind them, past Discord's 3 s at worst. They go through a REST
 * client of their own, which keeps each route's own limits.
 */
function answerInteractionsOutsideTheGlobalCap(client: Client, options: Partial<RESTOptions>): void {
  const interactions = new REST({ ...options, globalRequestsPerSecond: INTERACTION_REQUESTS_PER_SECOND });
  const everything = client.rest.request.bind(client.rest);
  client.rest.request = (request) => {
    const appId = client.application?.id ?? client.user?.id;
    const interaction =
      /^\/interactions\/\d+\/[^/]+\/callback$/.test(request.fullRoute) ||
      (appId !== undefined && request.fullRoute.startsWith(`/webhooks/${appId}/`));
    if (!interaction) return everything(request);
    if (client.token !== null) interactions.setToken(client.token);
    return interactions.request(request);
  };
  // discord.js stops its own REST client's sweep timers when the client is destroyed; this one's too.
  const destroy = client.destroy.bind(client);
  client.destroy = () => {
    interactions.clearHashSweeper();
    interactions.clearHandlerSweeper();
    return destroy();
  };
}

/** Logs in and resolves once the gateway said READY (guilds cached), or with the login error. */
export async function loginClient(client: Client, token: string): Promise<Client<true>> {
  const ready = new Promise<void>((resolve) => client.once('clientReady', () => resolve()));
  await client.login(token);
  await ready;
  return client as Client<true>;
}
