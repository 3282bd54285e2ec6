import { Client, GatewayIntentBits, Partials, REST, type RESTOptions } from 'discord.js';
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

/** Requests per second for interaction endpoints, which Discord does not hold to the global limit (their own routes' limits still apply). */
const INTERACTION_REQUESTS_PER_SECOND = 10_000;

export function createDiscordClient(settings: ClientSettings = {}): Client {
  const shards = settings.shards ?? ALL_IN_ONE;
  const rest: Partial<RESTOptions> = {
    agent: new Agent({ keepAliveTimeout: KEEP_ALIVE_MS, keepAliveMaxTimeout: KEEP_ALIVE_MS, connections: CONNECTIONS }),
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
}

/** Logs in and resolves once the gateway said READY (guilds cached), or with the login error. */
export async function loginClient(client: Client, token: string): Promise<Client<true>> {
  const ready = new Promise<void>((resolve) => client.once('clientReady', () => resolve()));
  await client.login(token);
  await ready;
  return client as Client<true>;
}
