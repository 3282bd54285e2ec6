/** The simulator sends edits and deletions as Discord does, and the real discord.js reads them. */
import { Client, Events, GatewayIntentBits, Partials, type Message, type PartialMessage } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DiscordSim, loginBot, Permissions, SimUserError, startDiscordSim } from '../../../scripts/fakes/discord/index.ts';

let sim: DiscordSim;

beforeEach(async () => {
  sim = await startDiscordSim({
    guilds: [
      {
        name: 'Club',
        channels: ['game'],
        members: [{ name: 'alice', owner: true }, 'bob', { name: 'mod', permissions: Permissions.ManageMessages }],
      },
    ],
  });
});
afterEach(() => sim.close());

type Seen = { content: string | null; partial: boolean; authorId: string | null };
const seen = (m: Message | PartialMessage): Seen => ({ content: m.content, partial: m.partial, authorId: m.author?.id ?? null });

/** Every messageUpdate, messageDelete and messageDeleteBulk the client emits, in order. */
function record(client: Client): { updates: Seen[]; deletes: string[]; bulks: string[][] } {
  const out = { updates: [] as Seen[], deletes: [] as string[], bulks: [] as string[][] };
  client.on(Events.MessageUpdate, (_old, updated) => out.updates.push(seen(updated)));
  client.on(Events.MessageDelete, (m) => out.deletes.push(m.id));
  client.on(Events.MessageBulkDelete, (messages) => out.bulks.push([...messages.keys()]));
  return out;
}

describe('discord simulator: messages edited and deleted after they were sent', () => {
  it('GIVEN a bot with Partials.Message that never cached the message WHEN its author edits it, Discord unfurls a link in it, and it is deleted THEN discord.js emits the full edit, the unfurl over the content it now knows, and a deletion by id', async () => {
    const said = sim.user('bob').say('game', 'see https://example.com');
    const client = await loginBot(sim);
    const got = record(client);

    sim.user('bob').edit(said, 'see https://example.org');
    sim.unfurl(said);
    sim.user('bob').deleteMessage(said);
    await sim.until(() => got.deletes.length === 1);

    expect(got.updates).toEqual([
      { content: 'see https://example.org', partial: false, authorId: sim.user('bob').id },
      { content: 'see https://example.org', partial: false, authorId: sim.user('bob').id },
    ]);
    expect(got.deletes).toEqual([said.id]);
  });

  it('GIVEN a client without Partials.Message WHEN an uncached message is edited or deleted THEN discord.js emits nothing, as with real Discord', async () => {
    const said = sim.user('bob').say('game', 'before the client');
    const client = await loginBot(sim, { partials: [Partials.Channel] });
    const got = record(client);
    const later = sim.user('bob').say('game', 'after');
    await sim.until(() => client.channels.cache.some((c) => c.isTextBased() && c.messages.cache.has(later.id)));
    sim.user('bob').edit(said, 'changed');
    sim.user('bob').deleteMessage(said);
    sim.user('bob').edit(later, 'after, edited');
    await sim.until(() => got.updates.length === 1);
    expect(got).toEqual({ updates: [{ content: 'after, edited', partial: false, authorId: sim.user('bob').id }], deletes: [], bulks: [] });
  });

  it('GIVEN a link Discord unfurls in a message the client never saw WHEN the update comes THEN it is a partial message without content or author', async () => {
    const said = sim.user('bob').say('game', 'https://example.com');
    const client = await loginBot(sim);
    const got = record(client);
    sim.unfurl(said);
    await sim.until(() => got.updates.length === 1);
    expect(got.updates).toEqual([{ content: null, partial: true, authorId: null }]);
  });

  it('GIVEN a bot without the MessageContent intent WHEN a person edits a message THEN the update arrives with its content empty', async () => {
    const client = await loginBot(sim, { intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages] });
    const got = record(client);
    const said = sim.user('bob').say('game', 'secret');
    sim.user('bob').edit(said, 'still secret');
    await sim.until(() => got.updates.length === 1);
    expect(got.updates[0]?.content).toBe('');
  });

  it('GIVEN messages of several people WHEN a moderator purges them THEN one MESSAGE_DELETE_BULK names them all; the bot’s own REST bulk delete does the same', async () => {
    const client = await loginBot(sim);
    const got = record(client);
    const a = sim.user('alice').say('game', 'one');
    const b = sim.user('bob').say('game', 'two');
    const c = sim.user('bob').say('game', 'three');
    sim.bulkDelete('game', [a, b, 'not-a-message']);
    await sim.until(() => got.bulks.length === 1);
    expect(got.bulks).toEqual([[a.id, b.id]]);

    const d = sim.user('alice').say('game', 'four');
    await sim.until(() => client.channels.cache.some((ch) => ch.isTextBased() && ch.messages.cache.has(d.id)));
    const channel = client.channels.cache.get(sim.channel('game').id);
    if (!channel?.isTextBased() || channel.isDMBased()) return expect.fail('the game channel is a text channel');
    await channel.bulkDelete([c.id, d.id]);
    await sim.until(() => got.bulks.length === 2);
    expect(got.bulks[1]).toEqual([c.id, d.id]);
    expect(got.deletes).toEqual([]);
    expect(sim.messagesIn('game').map((m) => m.content)).toEqual([]);
  });

  it('GIVEN messages of others WHEN a person edits or deletes them THEN their client refuses, unless deleting with Manage Messages', async () => {
    await loginBot(sim);
    const said = sim.user('bob').say('game', 'mine');
    expect(() => sim.user('alice').edit(said, 'hers now')).toThrow(SimUserError);
    expect(() => sim.user('bob').edit(said, '   ')).toThrow(SimUserError);
    sim.user('mod').deleteMessage(sim.user('alice').say('game', 'tolerated'));
    const dm = sim.user('bob').dm('hello bot');
    expect(() => sim.user('alice').deleteMessage(dm)).toThrow(SimUserError);
    sim.user('mod').deleteMessage(said);
    expect(() => sim.user('bob').deleteMessage(said)).toThrow(SimUserError);
    expect(sim.messagesIn('game')).toEqual([]);
  });
});
