import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  ChannelType,
  type Client,
  ComponentType,
  Events,
  type Interaction,
  InteractionContextType,
  MessageFlags,
  ModalBuilder,
  PermissionFlagsBits,
  SlashCommandBuilder,
  StringSelectMenuBuilder,
  TextInputStyle,
} from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DiscordSim, loginBot, SimUserError, startDiscordSim } from '../../../scripts/fakes/discord/index.ts';

const mafia = new SlashCommandBuilder()
  .setName('mafia')
  .setDescription('Play Mafia')
  .addSubcommand((s) => s.setName('status').setDescription('Status'))
  .addSubcommand((s) => s.setName('slow').setDescription('Deferred'))
  .addSubcommand((s) => s.setName('will').setDescription('Write a will'))
  .addSubcommand((s) =>
    s
      .setName('create')
      .setDescription('Lobby')
      .addIntegerOption((o) => o.setName('players').setDescription('n').setRequired(true).setMinValue(5).setMaxValue(12)),
  )
  .addSubcommand((s) =>
    s
      .setName('add-ai')
      .setDescription('Add an AI')
      .addStringOption((o) => o.setName('persona').setDescription('who').setRequired(true).setAutocomplete(true)),
  )
  .addSubcommand((s) =>
    s
      .setName('end')
      .setDescription('End')
      .addUserOption((o) => o.setName('who').setDescription('user')),
  );

let sim: DiscordSim;
let client: Client<true>;
let handler: (i: Interaction) => Promise<void>;

beforeEach(async () => {
  sim = await startDiscordSim({ guilds: [{ name: 'Club', channels: ['game'], members: [{ name: 'alice', owner: true }, 'bob'] }] });
  client = await loginBot(sim);
  await client.application.commands.set([mafia.toJSON()]);
  handler = async () => {};
  client.on(Events.InteractionCreate, (i) => void handler(i).catch((e: unknown) => console.error(e)));
});
afterEach(() => sim.close());

describe('discord simulator: interactions through discord.js', () => {
  it('registers commands with application.commands.set (PUT, ids assigned) and lists them back', async () => {
    expect(sim.requests('PUT', '/applications/:appId/commands')).toHaveLength(1);
    const fetched = await client.application.commands.fetch();
    expect(fetched.map((c) => c.name)).toEqual(['mafia']);
    await client.application.commands.set([mafia.toJSON()], sim.guild().id);
    expect(sim.commands('Club').map((c) => c.name)).toEqual(['mafia']);
    expect(sim.requests('PUT', '/applications/:appId/guilds/:guildId/commands')).toHaveLength(1);
    await expect(client.application.commands.set([{ name: 'Bad Name', description: 'x' }])).rejects.toMatchObject({ code: 50035 });
  });

  it('slash command answered with an ephemeral reply', async () => {
    handler = async (i) => {
      if (!i.isChatInputCommand()) return;
      expect(i.options.getSubcommand()).toBe('status');
      expect(i.guildId).toBe(sim.guild().id);
      expect(i.memberPermissions?.has('ManageGuild')).toBe(false);
      await i.reply({ content: 'No game here.', flags: MessageFlags.Ephemeral });
    };
    const reply = sim.user('bob').slash('game', 'mafia', { subcommand: 'status' });
    const m = await reply.ephemeral();
    expect(m.content).toBe('No game here.');
    expect(sim.messagesIn('game')).toHaveLength(0); // nobody else sees it
    expect(sim.messagesIn('game', { as: 'bob' })).toHaveLength(1);
    expect(reply.ackLatencyMs).toBeLessThan(3000);
  });

  it('the legacy ephemeral: true option works too', async () => {
    handler = async (i) => {
      if (i.isChatInputCommand()) await i.reply({ content: 'psst', ephemeral: true });
    };
    expect((await sim.user('bob').slash('game', 'mafia', { subcommand: 'status' }).ephemeral()).content).toBe('psst');
  });

  it('typed options arrive resolved: integers, users (with members)', async () => {
    let seen: unknown[] = [];
    handler = async (i) => {
      if (!i.isChatInputCommand()) return;
      seen = [
        i.options.getSubcommand(),
        i.options.getInteger('players'),
        i.options.getUser('who')?.username ?? null,
        i.options.getMember('who') ? 'member' : null,
      ];
      await i.reply({ content: 'ok' });
    };
    await sim
      .user('alice')
      .slash('game', 'mafia', { subcommand: 'create', options: { players: 7 } })
      .public();
    expect(seen).toEqual(['create', 7, null, null]);
    await sim
      .user('alice')
      .slash('game', 'mafia', { subcommand: 'end', options: { who: sim.user('bob') } })
      .public();
    expect(seen).toEqual(['end', null, 'bob', 'member']);
    // What the Discord client itself would refuse never reaches the bot.
    expect(() => sim.user('alice').slash('game', 'mafia', { subcommand: 'create', options: { players: 3 } })).toThrow(SimUserError);
    expect(() => sim.user('alice').slash('game', 'mafia', { subcommand: 'create' })).toThrow(/needs option players/);
    expect(() => sim.user('alice').slash('game', 'nope')).toThrow(/not registered/);
  });

  it('deferReply then editReply', async () => {
    handler = async (i) => {
      if (!i.isChatInputCommand()) return;
      await i.deferReply({ flags: MessageFlags.Ephemeral });
      await new Promise((r) => setTimeout(r, 50));
      await i.editReply({ content: 'Done thinking.' });
    };
    const h = sim.user('bob').slash('game', 'mafia', { subcommand: 'slow' });
    expect((await h.ack()).type).toBe(5);
    const m = await h.ephemeral();
    expect(m.content).toBe('Done thinking.');
    expect(sim.requests('PATCH', '/webhooks/:webhookId/:token/messages/:messageId')[0]!.path).toMatch(/\/messages\/@original$/);
  });

  it('showModal, then the modal submitted by the user and answered', async () => {
    let will = '';
    handler = async (i) => {
      if (i.isChatInputCommand()) {
        // The action-row layout Discord still takes (its builder methods are deprecated); labels are the next test.
        await i.showModal({
          custom_id: 'will',
          title: 'Last will',
          components: [
            {
              type: ComponentType.ActionRow,
              components: [
                { type: ComponentType.TextInput, custom_id: 'text', label: 'Your will', style: TextInputStyle.Paragraph, max_length: 4000 },
              ],
            },
          ],
        });
      } else if (i.isModalSubmit()) {
        will = i.fields.getTextInputValue('text');
        await i.reply({ content: 'Will saved.', flags: MessageFlags.Ephemeral });
      }
    };
    const bob = sim.user('bob');
    const modal = await bob.slash('game', 'mafia', { subcommand: 'will' }).modal();
    expect(modal.title).toBe('Last will');
    expect(() => bob.submitModal('will', { text: 'x'.repeat(4001) })).toThrow(/at most 4000/);
    const saved = await bob.submitModal('will', { text: 'I was the doctor.' }).ephemeral();
    expect(saved.content).toBe('Will saved.');
    expect(will).toBe('I was the doctor.');
  });

  it('modals built with label components (the non-deprecated builder API) submit too', async () => {
    let bio = '';
    handler = async (i) => {
      if (i.isChatInputCommand()) {
        await i.showModal(
          new ModalBuilder()
            .setCustomId('persona')
            .setTitle('Persona')
            .addLabelComponents((l) =>
              l.setLabel('Bio').setTextInputComponent((t) => t.setCustomId('bio').setStyle(TextInputStyle.Paragraph)),
            ),
        );
      } else if (i.isModalSubmit()) {
        bio = i.fields.getTextInputValue('bio');
        await i.reply({ content: 'saved', flags: MessageFlags.Ephemeral });
      }
    };
    await sim.user('bob').slash('game', 'mafia', { subcommand: 'will' }).modal();
    expect((await sim.user('bob').submitModal('persona', { bio: 'A famous mathematician.' }).ephemeral()).content).toBe('saved');
    expect(bio).toBe('A famous mathematician.');
  });

  it('a modal over Discord limits is refused with 400 and surfaces as the handle rejecting', async () => {
    let error: unknown;
    handler = async (i) => {
      if (!i.isChatInputCommand()) return;
      // Raw JSON: a max_length of 5000 is past what the builder allows.
      await i
        .showModal({
          custom_id: 'will',
          title: 't',
          components: [
            {
              type: ComponentType.Label,
              label: 'Will',
              component: { type: ComponentType.TextInput, custom_id: 'text', style: TextInputStyle.Paragraph, max_length: 5000 },
            },
          ],
        })
        .catch((e: unknown) => (error = e));
    };
    await expect(sim.user('bob').slash('game', 'mafia', { subcommand: 'will' }).ack()).rejects.toThrow(/refused: 400 50035/);
    await sim.until(() => error);
    expect((error as { code?: number }).code).toBe(50035);
    expect((error as Error).message).toMatch(/max_length/);
  });

  it('a button click answered by update, a select answered by deferUpdate + editReply', async () => {
    handler = async (i) => {
      if (i.isChatInputCommand()) {
        const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
          new ButtonBuilder().setCustomId('join').setLabel('Join').setStyle(ButtonStyle.Primary),
        );
        const pick = new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(
          new StringSelectMenuBuilder().setCustomId('vote').addOptions({ label: 'Alice', value: 'alice' }, { label: 'Bob', value: 'bob' }),
        );
        await i.reply({ content: 'Lobby: nobody', components: [row, pick] });
      } else if (i.isButton()) {
        await i.update({ content: `Lobby: ${i.user.username}` });
      } else if (i.isStringSelectMenu()) {
        await i.deferUpdate();
        await i.editReply({ content: `Vote: ${i.values.join(',')}`, components: [] });
      }
    };
    const lobby = await sim.user('alice').slash('game', 'mafia', { subcommand: 'status' }).public();
    const clicked = await sim.user('bob').click(lobby, 'join').updated();
    expect(clicked.id).toBe(lobby.id);
    expect(sim.messagesIn('game').at(-1)!.content).toBe('Lobby: bob');
    expect(() => sim.user('bob').select(lobby, 'vote', ['carol'])).toThrow(/no option carol/);
    const voted = await sim.user('bob').select(lobby, 'vote', ['alice']).updated();
    expect(voted.content).toBe('Vote: alice');
    expect(voted.components).toEqual([]);
    expect(() => sim.user('bob').click(lobby, 'join')).toThrow(/no component join/);
  });

  it('autocomplete answered with choices', async () => {
    handler = async (i) => {
      if (!i.isAutocomplete()) return;
      const typed = i.options.getFocused();
      await i.respond(
        ['Ada Lovelace', 'Alan Turing', 'Grace Hopper']
          .filter((n) => n.toLowerCase().startsWith(typed.toLowerCase()))
          .map((n) => ({ name: n, value: n })),
      );
    };
    const choices = await sim
      .user('alice')
      .autocomplete('game', 'mafia', { subcommand: 'add-ai', options: { persona: 'a' }, focused: 'persona' })
      .choices();
    expect(choices.map((c) => c.name)).toEqual(['Ada Lovelace', 'Alan Turing']);
  });

  it('a second callback is refused (40060) and a late one is Unknown interaction (10062)', async () => {
    const errors: unknown[] = [];
    handler = async (i) => {
      if (!i.isChatInputCommand()) return;
      if (i.options.getSubcommand() === 'slow') {
        // Answers only once the simulator's ack window for this interaction has closed.
        const createdAt = sim.interactions.all.get(i.id)!.createdAt;
        await sim.until(() => Date.now() - createdAt > sim.interactions.ackTimeoutMs);
        await i.reply('late').catch((e: unknown) => errors.push(e));
        return;
      }
      await i.reply('first');
      await client.rest
        .post(`/interactions/${i.id}/${i.token}/callback`, { body: { type: 4, data: { content: 'again' } }, auth: false })
        .catch((e: unknown) => errors.push(e));
    };
    // The first reply must be accepted: Discord's 3 s window, not a window a busy machine can miss.
    await sim.user('bob').slash('game', 'mafia', { subcommand: 'status' }).public();
    await sim.until(() => errors.length === 1);
    // A short window for the late one, so the test does not sit out 3 s.
    sim.interactions.ackTimeoutMs = 100;
    await expect(sim.user('bob').slash('game', 'mafia', { subcommand: 'slow' }).ack()).rejects.toThrow(/10062/);
    await sim.until(() => errors.length === 2);
    expect(errors).toMatchObject([{ code: 40060 }, { code: 10062 }]);
  });

  it('a slash command in a DM with the bot: no guild, no member, a DM channel', async () => {
    let where: unknown[] = [];
    handler = async (i) => {
      if (!i.isChatInputCommand()) return;
      where = [i.guildId, i.member, i.channel?.type, i.user.username, i.inGuild()];
      await i.reply({ content: 'This command needs a server.', flags: MessageFlags.Ephemeral });
    };
    const m = await sim.user('bob').slash('dm', 'mafia', { subcommand: 'status' }).ephemeral();
    expect(m.content).toBe('This command needs a server.');
    expect(where).toEqual([null, null, ChannelType.DM, 'bob', false]);
    // A guild-only command is not offered in DMs at all.
    await client.application.commands.set([{ ...mafia.toJSON(), contexts: [InteractionContextType.Guild] }]);
    expect(() => sim.user('bob').slash('dm', 'mafia', { subcommand: 'status' })).toThrow(/not offered in DMs/);
  });

  it('default_member_permissions hides a command from members without them', async () => {
    await client.application.commands.set([{ ...mafia.toJSON(), default_member_permissions: String(PermissionFlagsBits.ManageGuild) }]);
    expect(() => sim.user('bob').slash('game', 'mafia', { subcommand: 'status' })).toThrow(/hidden/);
    handler = async (i) => {
      if (i.isChatInputCommand()) await i.reply('ok');
    };
    await sim.user('alice').slash('game', 'mafia', { subcommand: 'status' }).public();
  });

  it('follow-ups: followUp after reply is a new message', async () => {
    handler = async (i) => {
      if (!i.isChatInputCommand()) return;
      await i.reply('one');
      await i.followUp({ content: 'two', flags: MessageFlags.Ephemeral });
    };
    const h = sim.user('bob').slash('game', 'mafia', { subcommand: 'status' });
    expect((await h.public()).content).toBe('one');
    const f = await h.followUp(0);
    expect(f.content).toBe('two');
    expect(f.visibleTo).toBe(sim.user('bob').id);
  });
});
