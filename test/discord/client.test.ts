import { setTimeout as quietFor } from 'node:timers/promises';
import { REST, Routes } from 'discord.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDiscordClient, loginClient } from '../../src/discord/client.ts';
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

describe('the Discord client: bounded, and nothing left behind', () => {
  it('GIVEN a client made for the bot WHEN it is destroyed THEN every timer its REST clients started is stopped (its interactions client included)', async () => {
    const started = vi.spyOn(globalThis, 'setInterval');
    const stopped = vi.spyOn(globalThis, 'clearInterval');
    try {
      const client = createDiscordClient({ apiUrl: 'http://127.0.0.1:9/api' });
      const timers = started.mock.results.map((r) => r.value as unknown);
      expect(timers.length).toBeGreaterThanOrEqual(4);

      await client.destroy();

      const cleared = new Set(stopped.mock.calls.map(([timer]) => timer as unknown));
      expect(timers.filter((t) => !cleared.has(t))).toEqual([]);
    } finally {
      started.mockRestore();
      stopped.mockRestore();
    }
  });

  it('GIVEN a busy channel WHEN more messages arrive than the bound THEN the client keeps only the newest 100 of them', async () => {
    sim = await startDiscordSim({ guilds: [{ name: 'Club', channels: ['game'], members: ['bob'] }] });
    const client = await loginClient(createDiscordClient({ apiUrl: sim.restApi }), sim.token);
    const channelId = sim.channel('game').id;
    let seen = 0;
    client.on('messageCreate', () => {
      seen++;
    });
    for (let i = 0; i < 130; i++) sim.user('bob').say('game', `message ${i}`);
    await sim.until(() => seen === 130);

    const channel = client.channels.cache.get(channelId);
    const cached = channel?.isTextBased() ? [...channel.messages.cache.values()].map((m) => m.content) : [];
    expect(cached).toHaveLength(100);
    expect(cached.at(-1)).toBe('message 129');
    expect(cached).not.toContain('message 29');
    await client.destroy();
  });

  it('GIVEN a client made for the bot WHEN a send forgets to say whom it may ping THEN Discord is told to ping nobody', async () => {
    sim = await startDiscordSim({ guilds: [{ name: 'Club', channels: ['game'], members: ['bob'] }] });
    const client = await loginClient(createDiscordClient({ apiUrl: sim.restApi }), sim.token);
    const channel = await client.channels.fetch(sim.channel('game').id);
    if (!channel?.isSendable()) throw new Error('the game channel takes no messages');

    await channel.send('@everyone look');

    expect(sim.requests('POST', '/channels/:channelId/messages').at(-1)?.body).toMatchObject({ allowed_mentions: { parse: [] } });
    await client.destroy();
  });
});
