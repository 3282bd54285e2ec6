import {
  AttachmentBuilder,
  ChannelType,
  type Client,
  DiscordAPIError,
  Events,
  GatewayIntentBits,
  type Message,
  OverwriteType,
  type TextChannel,
} from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type DiscordSim,
  LIMITS,
  loginBot,
  messageText,
  Permissions,
  SimUserError,
  startDiscordSim,
} from '../../../scripts/fakes/discord/index.ts';
import { stringMatching } from '../../support/matchers.ts';

let sim: DiscordSim;
let client: Client<true>;
const textChannel = (name: string) => client.channels.cache.find((c) => c.type === ChannelType.GuildText && c.name === name) as TextChannel;

beforeEach(async () => {
  sim = await startDiscordSim({
    guilds: [
      {
        name: 'Club',
        channels: ['game', 'other'],
        members: [{ name: 'alice', owner: true }, 'bob', 'carol', { name: 'dave', dmsOpen: false }],
      },
    ],
  });
  client = await loginBot(sim);
});
afterEach(() => sim.close());

describe('discord simulator: messages, DMs, webhooks, threads, permissions', () => {
  it('a human typing in a channel reaches messageCreate; the bot answers in the channel', async () => {
    client.on(Events.MessageCreate, (m) => {
      if (!m.author.bot && m.content === 'ping') void m.channel.send('pong');
    });
    const said = sim.user('bob').say('game', 'ping');
    await sim.until(() => sim.messagesIn('game').some((m) => m.content === 'pong'));
    expect(sim.messagesIn('game').map((m) => [m.displayName, m.content])).toEqual([
      ['bob', 'ping'],
      ['Dramatis', 'pong'],
    ]);
    expect(said.authorId).toBe(sim.user('bob').id);
  });

  it('a DM reaches messageCreate (Partials.Channel) and is answered with user.send', async () => {
    client.on(Events.MessageCreate, (m: Message) => {
      if (m.author.bot || m.guildId) return;
      expect(m.channel.type).toBe(ChannelType.DM);
      void m.author.send(`You said: ${m.content}`);
    });
    sim.user('carol').dm('kill bob');
    await sim.until(() => sim.dmsTo('carol').length === 1);
    expect(sim.dmsOf('carol').map((m) => m.content)).toEqual(['kill bob', 'You said: kill bob']);
    expect(sim.dmsOf('bob')).toEqual([]);
    // discord.js cached the DM channel from the incoming message: no POST /users/@me/channels needed.
    expect(sim.requests('POST', '/users/@me/channels')).toHaveLength(0);
  });

  it('a DM to a user who closed their DMs fails with 50007', async () => {
    const dave = await client.users.fetch(sim.user('dave').id);
    await expect(dave.send('your role')).rejects.toMatchObject({ code: 50007, status: 403 });
    expect(sim.requests('POST', '/users/@me/channels')).toHaveLength(1);
  });

  it('a message over 2000 characters is refused with 400 (DiscordAPIError 50035), like Discord', async () => {
    const err = await textChannel('game')
      .send('x'.repeat(LIMITS.content + 1))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DiscordAPIError);
    expect(err).toMatchObject({
      code: 50035,
      status: 400,
      message: stringMatching(/content\[BASE_TYPE_MAX_LENGTH\]: Must be 2000 or fewer in length/),
    });
    expect(sim.messagesIn('game')).toHaveLength(0);
    await expect(
      textChannel('game').send({ embeds: [{ title: 't', fields: Array.from({ length: 26 }, (_, i) => ({ name: `f${i}`, value: 'v' })) }] }),
    ).rejects.toMatchObject({ code: 50035 });
  });

  it('embeds and uploaded files are kept, with the file served at its url', async () => {
    await textChannel('game').send({
      content: 'The director’s cut',
      embeds: [{ title: 'Town wins', description: 'All mafia are dead.' }],
      files: [new AttachmentBuilder(Buffer.from('# Director’s cut\n'), { name: 'directors-cut.md' })],
    });
    const [m] = sim.messagesIn('game');
    expect(messageText(m!)).toContain('Town wins');
    expect(m!.attachments.map((a) => a.filename)).toEqual(['directors-cut.md']);
    expect(m!.attachments[0]!.data.toString()).toBe('# Director’s cut\n');
    const served = await fetch(m!.attachments[0]!.url);
    expect(await served.text()).toBe('# Director’s cut\n');
  });

  it('@everyone pings only when allowed_mentions allow it', async () => {
    await textChannel('game').send({ content: '@everyone night falls', allowedMentions: { parse: [] } });
    await textChannel('game').send({ content: '@everyone day breaks' });
    expect(sim.messagesIn('game').map((m) => m.mentionEveryone)).toEqual([false, true]);
  });

  it('a webhook made with channel.createWebhook posts under the persona name and avatar', async () => {
    const webhook = await textChannel('game').createWebhook({ name: 'Dramatis voices' });
    await webhook.send({ username: 'Ada Lovelace', avatarURL: 'https://example.test/ada.png', content: 'I suspect Bob.' });
    const [m] = sim.webhookMessages('game');
    expect(m!.displayName).toBe('Ada Lovelace');
    expect(m!.avatarUrl).toBe('https://example.test/ada.png');
    expect(m!.content).toBe('I suspect Bob.');
    expect(sim.webhooksIn('game')).toHaveLength(1);
    expect((await textChannel('game').fetchWebhooks()).size).toBe(1);
    // Discord's rules on webhook names.
    await expect(webhook.send({ username: 'Discord Staff', content: 'hi' })).rejects.toMatchObject({ code: 50035 });
    await expect(webhook.send({ username: 'x'.repeat(81), content: 'hi' })).rejects.toMatchObject({ code: 50035 });
    // Someone deletes it by hand: the next send is Unknown Webhook.
    sim.deleteWebhook(webhook.id);
    await expect(webhook.send({ content: 'still there?' })).rejects.toMatchObject({ code: 10015, status: 404 });
  });

  it('a private thread with members added; only they see it; a webhook can post into it', async () => {
    const thread = await textChannel('game').threads.create({ name: 'mafia', type: ChannelType.PrivateThread, invitable: false });
    await thread.members.add(sim.user('alice').id);
    await thread.members.add(sim.user('carol').id);
    expect(sim.threadMembers(thread.id).sort()).toEqual([sim.botUserId, sim.user('alice').id, sim.user('carol').id].sort());
    expect(sim.threadsOf('game').map((t) => t.type)).toEqual([ChannelType.PrivateThread]);
    expect(() => sim.user('bob').say(thread.id, 'let me in')).toThrow(SimUserError);
    const heard: string[] = [];
    client.on(Events.MessageCreate, (m) => {
      if (m.channelId === thread.id) heard.push(m.content);
    });
    sim.user('carol').say(thread.id, 'kill bob tonight');
    const webhook = await textChannel('game').createWebhook({ name: 'voices' });
    await webhook.send({ username: 'Ada Lovelace', content: 'agreed', threadId: thread.id });
    await sim.until(() => heard.length === 2);
    expect(sim.messagesIn(thread.id).map((m) => `${m.displayName}: ${m.content}`)).toEqual([
      'carol: kill bob tonight',
      'Ada Lovelace: agreed',
    ]);
    expect(sim.user('bob').sees(thread.id)).toEqual([]);
    expect(sim.user('alice').sees(thread.id)).toHaveLength(2);
  });

  it('GIVEN a private thread that is not invitable WHEN a member adds someone THEN the client refuses; WHEN it is invitable THEN they are in', async () => {
    const closed = await textChannel('game').threads.create({ name: 'closed', type: ChannelType.PrivateThread, invitable: false });
    await closed.members.add(sim.user('carol').id);
    expect(() => sim.user('carol').invite(closed.id, sim.user('bob'))).toThrow(/only moderators/);
    expect(sim.threadMembers(closed.id)).not.toContain(sim.user('bob').id);
    expect(sim.user('bob').sees(closed.id)).toEqual([]);
    // The owner may manage threads: Discord lets them add anyone.
    sim.user('alice').invite(closed.id, sim.user('bob'));
    expect(sim.threadMembers(closed.id)).toContain(sim.user('bob').id);

    const open = await textChannel('game').threads.create({ name: 'open', type: ChannelType.PrivateThread, invitable: true });
    await open.members.add(sim.user('carol').id);
    sim.user('carol').invite(open.id, sim.user('bob'));
    await sim.until(() => open.members.cache.has(sim.user('bob').id));
    expect(sim.user('bob').can(open.id, Permissions.ViewChannel)).toBe(true);
  });

  it('permission overwrites mute a player; CHANNEL_UPDATE reaches the cache', async () => {
    const bob = sim.user('bob');
    expect(bob.can('game', Permissions.SendMessages)).toBe(true);
    await textChannel('game').permissionOverwrites.edit(bob.id, { SendMessages: false }, { type: OverwriteType.Member });
    expect(bob.can('game', Permissions.SendMessages)).toBe(false);
    expect(() => bob.say('game', 'I am dead but talking')).toThrow(/cannot send/);
    await sim.until(() => textChannel('game').permissionOverwrites.cache.has(bob.id));
    expect(textChannel('game').permissionsFor(bob.id)!.has('SendMessages')).toBe(false);
    expect(sim.requests('PUT', '/channels/:channelId/permissions/:overwriteId')[0]!.body).toMatchObject({
      type: 1,
      deny: String(Permissions.SendMessages),
    });
  });

  it('typing indicators are recorded', async () => {
    await textChannel('game').sendTyping();
    expect(sim.typingIn('game')).toHaveLength(1);
  });

  it('unknown channels answer 404 Unknown Channel; edits of others’ messages 403', async () => {
    await expect(client.rest.post('/channels/1234/messages', { body: { content: 'x' } })).rejects.toMatchObject({
      code: 10003,
      status: 404,
    });
    const human = sim.user('bob').say('game', 'hello');
    await expect(
      client.rest.patch(`/channels/${human.channelId}/messages/${human.id}`, { body: { content: 'edited' } }),
    ).rejects.toMatchObject({ code: 50005 });
  });
});

describe('discord simulator: intents', () => {
  it('without MessageContent the bot sees guild messages without content, but DMs and mentions in full', async () => {
    const bare = await loginBot(sim, {
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.DirectMessages],
    });
    const contents: string[] = [];
    bare.on(Events.MessageCreate, (m) => contents.push(m.content));
    sim.user('bob').say('game', 'secret plan');
    sim.user('bob').say('game', `<@${sim.botUserId}> hello`);
    sim.user('bob').dm('by dm');
    await sim.until(() => contents.length === 3);
    expect(contents).toEqual(['', `<@${sim.botUserId}> hello`, 'by dm']);
  });
});
