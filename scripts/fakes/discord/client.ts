/** A real discord.js Client pointed at the simulator, with the intents and partials the bot uses. */
import { Client, type ClientOptions, GatewayIntentBits, Partials } from 'discord.js';
import type { DiscordSim } from './sim.ts';

const BOT_INTENTS = [
  GatewayIntentBits.Guilds,
  GatewayIntentBits.GuildMessages,
  GatewayIntentBits.MessageContent,
  GatewayIntentBits.DirectMessages,
];
const BOT_PARTIALS = [Partials.Channel, Partials.Message];

/** Client options for the simulator: its REST base, the bot's intents and partials; `overrides` win. */
export function simClientOptions(sim: DiscordSim, overrides: Partial<ClientOptions> = {}): ClientOptions {
  return {
    intents: BOT_INTENTS,
    partials: BOT_PARTIALS,
    ...overrides,
    rest: { ...overrides.rest, api: sim.restApi },
  };
}

/** Logs a new client in and resolves once it is ready (guild cache filled). Destroyed by sim.close(). */
export async function loginBot(sim: DiscordSim, overrides: Partial<ClientOptions> = {}): Promise<Client<true>> {
  const client = new Client(simClientOptions(sim, overrides));
  sim.onClose(() => client.destroy());
  const ready = new Promise<void>((resolve) => client.once('clientReady', () => resolve()));
  await client.login(sim.token);
  await ready;
  return client as Client<true>;
}
