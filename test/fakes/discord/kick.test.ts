import { ChannelType, Events, type Guild, type TextChannel } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type DiscordSim, loginBot, startDiscordSim } from '../../../scripts/fakes/discord/index.ts';

let sim: DiscordSim | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

describe('discord simulator: the bot kicked from a server', () => {
  it('GIVEN the bot in two servers WHEN kicked from one THEN it gets GUILD_DELETE (not unavailable), that server’s channels answer 403 Missing Access, the other still works, and a new login no longer lists it', async () => {
    sim = await startDiscordSim({
      guilds: [
        { name: 'Club', channels: ['game'], members: [{ name: 'alice', owner: true }] },
        { name: 'Other', channels: ['general'], members: [{ name: 'bob', owner: true }] },
      ],
    });
    const client = await loginBot(sim);
    const game = client.channels.cache.find((c) => c.type === ChannelType.GuildText && c.name === 'game') as TextChannel;
    const general = client.channels.cache.find((c) => c.type === ChannelType.GuildText && c.name === 'general') as TextChannel;
    const deleted: Guild[] = [];
    const unavailable: Guild[] = [];
    client.on(Events.GuildDelete, (g) => deleted.push(g));
    client.on(Events.GuildUnavailable, (g) => unavailable.push(g));

    sim.kickBot('Club');
    await sim.until(() => deleted.length === 1);

    expect(deleted.map((g) => g.name)).toEqual(['Club']);
    expect(unavailable).toEqual([]);
    expect(client.guilds.cache.map((g) => g.name)).toEqual(['Other']);
    await expect(game.send('still here?')).rejects.toMatchObject({ status: 403, code: 50001 });
    await expect(client.channels.fetch(game.id, { force: true })).rejects.toMatchObject({ status: 403, code: 50001 });
    await expect(general.send('hello')).resolves.toBeDefined();

    const again = await loginBot(sim);
    expect(again.guilds.cache.map((g) => g.name)).toEqual(['Other']);
  });
});
