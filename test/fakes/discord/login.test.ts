import { ChannelType, Client, Events } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type DiscordSim, loginBot, simClientOptions, startDiscordSim } from '../../../scripts/fakes/discord/index.ts';

let sim: DiscordSim | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

describe('discord simulator: login', () => {
  it('logs a real discord.js client in: READY, then the guild cache filled from GUILD_CREATE', async () => {
    sim = await startDiscordSim({
      guilds: [
        {
          name: 'Mafia Club',
          channels: ['town-square', 'lobby'],
          members: [{ name: 'alice', owner: true }, 'bob', { name: 'carol', manageServer: true }],
        },
      ],
    });
    const client = await loginBot(sim);
    expect(client.user.id).toBe(sim.botUserId);
    expect(client.application.id).toBe(sim.appId);
    const guild = client.guilds.cache.first()!;
    expect(guild.name).toBe('Mafia Club');
    expect(guild.ownerId).toBe(sim.user('alice').id);
    expect(
      guild.channels.cache
        .filter((c) => c.type === ChannelType.GuildText)
        .map((c) => c.name)
        .sort(),
    ).toEqual(['lobby', 'town-square']);
    expect(guild.members.cache.size).toBe(4); // three humans and the bot
    expect(guild.members.cache.get(sim.user('carol').id)!.permissions.has('ManageGuild')).toBe(true);
    expect(guild.members.cache.get(sim.user('bob').id)!.permissions.has('ManageGuild')).toBe(false);
    expect(guild.members.me!.permissions.has('ManageWebhooks')).toBe(true);
    // discord.js fetched the gateway over REST, then connected with plain JSON and no compression.
    expect(sim.requests('GET', '/gateway/bot')).toHaveLength(1);
    expect(sim.gateway.connections[0]!.query).toBe('?v=10&encoding=json');
  });

  it('refuses a wrong token: login rejects with TokenInvalid', async () => {
    sim = await startDiscordSim();
    const client = new Client(simClientOptions(sim));
    sim.onClose(() => client.destroy());
    await expect(client.login('not-the-token')).rejects.toThrow(/token/i);
  });

  it('resumes after the gateway drops it, and gets the events it missed', async () => {
    sim = await startDiscordSim({ guilds: [{ name: 'S', channels: ['general'], members: ['dora'] }] });
    const client = await loginBot(sim);
    const seen: string[] = [];
    client.on(Events.MessageCreate, (m) => seen.push(m.content));
    const resumed = new Promise<void>((resolve) => client.on(Events.ShardResume, () => resolve()));
    sim.disconnectBot();
    sim.user('dora').say('general', 'said while the bot was away');
    await resumed;
    await sim.until(() => seen.includes('said while the bot was away'));
    await sim.until(() => sim!.gateway.sessions.size === 1);
    expect(sim.gateway.connections.length).toBe(2);
    expect(sim.gateway.resumes).toBe(1);
  });
});
