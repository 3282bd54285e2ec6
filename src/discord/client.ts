import { Client, GatewayIntentBits, Partials } from 'discord.js';
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

/** DM channels are not cached before their first message arrives; without this their messages are dropped. */
const BOT_PARTIALS = [Partials.Channel] as const;

export interface ClientSettings {
  /** REST base (e.g. `http://127.0.0.1:port/api`); unset: Discord itself. */
  readonly apiUrl?: string | undefined;
  /** discord.js's own global cap on REST requests per second (default 50, as Discord allows most bots). */
  readonly globalRequestsPerSecond?: number | undefined;
  /** The shards this client connects (default: the whole bot, shard 0 of 1). */
  readonly shards?: ShardSet | undefined;
}

export function createDiscordClient(settings: ClientSettings = {}): Client {
  const shards = settings.shards ?? ALL_IN_ONE;
  return new Client({
    intents: [...BOT_INTENTS],
    partials: [...BOT_PARTIALS],
    // Always given: discord.js otherwise reads SHARDS from the environment, where the operator's
    // SHARDS=auto (our setting, not its shard list) would crash it and SHARDS=1 would mean shard 1.
    shards: [...shards.ids],
    shardCount: shards.count,
    rest: {
      ...(settings.apiUrl !== undefined && { api: settings.apiUrl }),
      ...(settings.globalRequestsPerSecond !== undefined && { globalRequestsPerSecond: settings.globalRequestsPerSecond }),
    },
  });
}

/** Logs in and resolves once the gateway said READY (guilds cached), or with the login error. */
export async function loginClient(client: Client, token: string): Promise<Client<true>> {
  const ready = new Promise<void>((resolve) => client.once('clientReady', () => resolve()));
  await client.login(token);
  await ready;
  return client as Client<true>;
}
