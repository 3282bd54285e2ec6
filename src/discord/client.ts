import { Client, GatewayIntentBits, Partials } from 'discord.js';

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
}

export function createDiscordClient(settings: ClientSettings = {}): Client {
  return new Client({
    intents: [...BOT_INTENTS],
    partials: [...BOT_PARTIALS],
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
