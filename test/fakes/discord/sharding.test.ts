/** The simulator routes like Discord: each shard gets its own guilds' events, DMs go to shard 0. */
import { Events, type Client, type Interaction, type Message } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type DiscordSim, loginBot, startDiscordSim } from '../../../scripts/fakes/discord/index.ts';
import { shardOf } from '../../../scripts/fakes/discord/gateway.ts';

let sim: DiscordSim | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

/** What one client was sent: the messages and interactions it saw. */
function listen(client: Client): { messages: Message[]; interactions: Interaction[] } {
  const seen = { messages: [] as Message[], interactions: [] as Interaction[] };
  client.on(Events.MessageCreate, (m) => seen.messages.push(m));
  client.on(Events.InteractionCreate, (i) => seen.interactions.push(i));
  return seen;
}

describe('discord simulator: sharding', () => {
  it('GIVEN two guilds on shards 0 and 1 of 2 WHEN two shard clients log in THEN each holds only its guild, guild events reach only their shard, and DMs reach shard 0', async () => {
    sim = await startDiscordSim({
      recommendedShards: 2,
      guilds: [
        { name: 'Zero', channels: ['general'], members: [{ name: 'alice', owner: true }], onShard: { shard: 0, of: 2 } },
        { name: 'One', channels: ['general'], members: [{ name: 'bob', owner: true }], onShard: { shard: 1, of: 2 } },
      ],
    });
    expect(shardOf(sim.guild('Zero').id, 2)).toBe(0);
    expect(shardOf(sim.guild('One').id, 2)).toBe(1);
    const shard0 = await loginBot(sim, { shards: 0, shardCount: 2 });
    const shard1 = await loginBot(sim, { shards: 1, shardCount: 2 });
    expect(shard0.guilds.cache.map((g) => g.name)).toEqual(['Zero']);
    expect(shard1.guilds.cache.map((g) => g.name)).toEqual(['One']);
    const seen0 = listen(shard0);
    const seen1 = listen(shard1);

    sim.user('bob').say(sim.channel('general', 'One'), 'hello from One');
    sim.user('alice').dm('hello by DM');
    await sim.until(() => seen1.messages.length === 1 && seen0.messages.length === 1);
    expect(seen1.messages[0]!.content).toBe('hello from One');
    expect(seen0.messages[0]!.content).toBe('hello by DM');

    // The gateway advice a ShardingManager reads for `auto`.
    const advice = await shard0.rest.get('/gateway/bot');
    expect(advice).toMatchObject({ shards: 2 });
  });

  it('GIVEN a shard id outside the count WHEN a client identifies THEN the gateway closes with Invalid Shard', async () => {
    sim = await startDiscordSim();
    await expect(loginBot(sim, { shards: 3, shardCount: 2 })).rejects.toThrow();
  });
});
