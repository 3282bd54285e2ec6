import { setTimeout as quietFor } from 'node:timers/promises';
import { REST, Routes } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createDiscordClient } from '../../src/discord/client.ts';
import { startDiscordSim, type DiscordSim } from '../../scripts/fakes/discord/index.ts';

let sim: DiscordSim | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

/** undici's own default: an idle connection whose server gave no keep-alive hint is dropped after 4 s. */
const PAST_UNDICI_DEFAULT_MS = 5000;

describe('the Discord client: connections', () => {
  it(
    'GIVEN Discord (as Cloudflare: idle connections kept 400 s, no keep-alive hint) WHEN the bot is quiet for 5 s between two requests THEN the second goes on the connection of the first; a client on undici’s defaults opens a new one',
    async () => {
      sim = await startDiscordSim();
      const client = createDiscordClient({ apiUrl: sim.restApi });
      client.rest.setToken(sim.token);
      await client.rest.get(Routes.gatewayBot());
      const opened = sim.restConnections;

      const plain = new REST({ api: sim.restApi }).setToken(sim.token);
      await plain.get(Routes.gatewayBot());
      expect(sim.restConnections).toBe(opened + 1);

      await quietFor(PAST_UNDICI_DEFAULT_MS);
      await client.rest.get(Routes.gatewayBot());
      expect(sim.restConnections).toBe(opened + 1);
      await plain.get(Routes.gatewayBot());
      expect(sim.restConnections).toBe(opened + 2);
      await client.destroy();
    },
    PAST_UNDICI_DEFAULT_MS + 10_000,
  );
});
