/** Simulated humans: they type, click, pick and submit through the gateway like a Discord client would. */
import { ChannelType, ComponentType, InteractionResponseType, InteractionType } from 'discord.js';
import type { SimCore } from './core.ts';
import { InteractionHandle, startInteraction } from './handle.ts';
import { randomToken } from './ids.ts';
import type { Interactions, SimInteraction } from './interactions.ts';
import { codePoints, LIMITS } from './limits.ts';
import type { SimAttachment, SimChannel, SimMessage, SimUserRecord } from './model.ts';
import { channelPermissions, has, P } from './permissions.ts';
import { dmChannelFor } from './routes/misc.ts';
import { SimUserError } from './errors.ts';
import { deleteAsUser, editOwnMessage } from './message-changes.ts';
import { inviteToThread } from './thread-invites.ts';
import { apiChannel, apiMember, apiMessage, apiUser } from './serialize.ts';
import { buildOptions, findCommand, type FileInput, type SlashInput, type Typist } from './slash-options.ts';
import { findComponent, modalComponents, selectData } from './components.ts';

/** A channel given as its id, its record, or 'dm' for the user's DM with the bot. */
export type ChannelRef = string | SimChannel | { id: string };
export type MessageRef = string | SimMessage | { id: string };

export interface SimUserContext {
  core: SimCore;
  interactions: Interactions;
  resolveChannel(ref: ChannelRef): SimChannel;
  defaultTimeoutMs: number;
  attachmentUrl(channelId: string, id: string, filename: string): string;
}

export { SimUserError };

/** How a person posts: files, a reply, and whether they have Nitro (messages up to 4,000 characters). */
interface PostOptions {
  files?: FileInput[];
  replyTo?: MessageRef;
  nitro?: boolean;
}

export class SimUser {
  constructor(
    readonly record: SimUserRecord,
    private readonly ctx: SimUserContext,
  ) {}

  get id(): string {
    return this.record.id;
  }
  get name(): string {
    return this.record.username;
  }
  /** How they are named in a message. */
  get mention(): string {
    return `<@${this.id}>`;
  }
  toString(): string {
    return this.mention;
  }

  private get core() {
    return this.ctx.core;
  }
  private get world() {
    return this.ctx.core.world;
  }

  private channel(ref: ChannelRef): SimChannel {
    if (ref === 'dm') return dmChannelFor(this.core, this.id);
    return this.ctx.resolveChannel(ref);
  }

  /** The user's permissions in a channel (0n when they can't see it). */
  permissionsIn(ref: ChannelRef): bigint {
    return channelPermissions(this.world, this.channel(ref), this.id);
  }

  can(ref: ChannelRef, flag: bigint): boolean {
    return has(this.permissionsIn(ref), flag);
  }

  // ------------------------------------------------------------------ messages

  /** Types a message in a guild channel or thread. Throws when the Discord client would not let them. */
  say(ref: ChannelRef, text: string, options: PostOptions = {}): SimMessage {
    const ch = this.channel(ref);
    if (ch.type === ChannelType.DM) return this.dm(text, options);
    const perms = channelPermissions(this.world, ch, this.id);
    if (!has(perms, P.ViewChannel)) throw new SimUserError(`${this.name} cannot see #${ch.name}`);
    if (!has(perms, P.SendMessages)) throw new SimUserError(`${this.name} cannot send messages in #${ch.name}`);
    if (ch.threadMeta?.locked) throw new SimUserError(`#${ch.name} is locked`);
    return this.post(ch, text, options);
  }

  /** Edits a message of theirs (MESSAGE_UPDATE); throws when the Discord client would not let them. */
  edit(ref: MessageRef, text: string, options: { nitro?: boolean } = {}): SimMessage {
    return editOwnMessage(this.core, this.id, this.message(ref), text, options);
  }

  /** Deletes a message: their own, or another's with Manage Messages (MESSAGE_DELETE). */
  deleteMessage(ref: MessageRef): void {
    deleteAsUser(this.core, this.id, this.message(ref));
  }

  private message(ref: MessageRef): SimMessage {
    const found = this.world.messages.get(typeof ref === 'string' ? ref : ref.id);
    if (!found) throw new SimUserError(`no message ${typeof ref === 'string' ? ref : ref.id}`);
    return found;
  }

  /** Sends a DM to the bot. */
  dm(text: string, options: PostOptions = {}): SimMessage {
    return this.post(dmChannelFor(this.core, this.id), text, options);
  }

  private post(ch: SimChannel, text: string, options: PostOptions): SimMessage {
    // Nitro lets a person post twice what others may; bots stay at 2,000.
    const limit = options.nitro ? LIMITS.content * 2 : LIMITS.content;
    if (codePoints(text) > limit) throw new SimUserError(`A message is at most ${limit} characters`);
    const files = (options.files ?? []).map((f, index) => ({
      field: `files[${index}]`,
      index,
      filename: f.filename,
      contentType: f.contentType ?? 'text/plain',
      data: Buffer.isBuffer(f.content) ? f.content : Buffer.from(f.content),
    }));
    if (!text.trim() && files.length === 0) throw new SimUserError('Cannot send an empty message');
    const replyTo = options.replyTo ? (typeof options.replyTo === 'string' ? options.replyTo : options.replyTo.id) : undefined;
    return this.core.createMessage({
      channelId: ch.id,
      authorId: this.id,
      body: { content: text, ...(replyTo ? { message_reference: { message_id: replyTo } } : {}), nonce: randomToken(19) },
      files,
      trusted: true,
    });
  }

  /** Adds someone to a thread from the client; throws where Discord would not let them (a private thread that is not invitable). */
  invite(ref: ChannelRef, other: SimUser): void {
    inviteToThread(this.core, this.id, this.channel(ref), other.id);
  }

  /** Messages this user can see in a channel (their ephemerals included). */
  sees(ref: ChannelRef): SimMessage[] {
    const ch = this.channel(ref);
    if (!(channelPermissions(this.world, ch, this.id) & P.ViewChannel)) return [];
    return this.world.messagesOf(ch.id).filter((m) => !m.visibleTo || m.visibleTo === this.id);
  }

  /** The DM conversation with the bot, both sides. */
  dms(): SimMessage[] {
    const id = this.world.dmChannels.get(this.id);
    return id ? this.world.messagesOf(id) : [];
  }

  // ------------------------------------------------------------------ interactions

  private base(
    type: InteractionType,
    ch: SimChannel,
    data: unknown,
    extra: Record<string, unknown> = {},
  ): { interaction: SimInteraction; handle: InteractionHandle } {
    const core = this.core;
    const id = core.ids.next();
    const token = `aW50ZXJhY3Rpb246${id}:${randomToken(60)}`;
    const inGuild = ch.guildId !== null;
    const payload: Record<string, unknown> = {
      id,
      application_id: core.appId,
      type,
      data,
      token,
      version: 1,
      channel_id: ch.id,
      channel: inGuild
        ? { ...apiChannel(this.world, ch), permissions: channelPermissions(this.world, ch, this.id).toString() }
        : { id: ch.id, type: ChannelType.DM, last_message_id: ch.lastMessageId, flags: 0, recipients: [apiUser(this.world, this.id)] },
      app_permissions: channelPermissions(this.world, ch, core.botUserId).toString(),
      locale: 'en-US',
      entitlements: [],
      authorizing_integration_owners: inGuild ? { '0': ch.guildId } : { '1': this.id },
      context: inGuild ? 0 : 1,
      attachment_size_limit: 10 * 1024 * 1024,
      ...extra,
    };
    if (inGuild) {
      const member = this.world.guilds.get(ch.guildId!)?.members.get(this.id);
      if (!member) throw new SimUserError(`${this.name} is not a member of the server of #${ch.name}`);
      payload.guild_id = ch.guildId;
      payload.guild = { id: ch.guildId, locale: 'en-US', features: [] };
      payload.guild_locale = 'en-US';
      payload.member = { ...apiMember(this.world, member), permissions: channelPermissions(this.world, ch, this.id).toString() };
    } else {
      payload.user = apiUser(this.world, this.id);
    }
    const interaction = startInteraction(core, this.ctx.interactions, {
      id,
      token,
      type,
      userId: this.id,
      channelId: ch.id,
      guildId: ch.guildId,
      data,
      payload,
      sourceMessageId: (extra.message as { id?: string } | undefined)?.id ?? null,
    });
    return { interaction, handle: new InteractionHandle(core, interaction, this.ctx.defaultTimeoutMs) };
  }

  /** Attachments this user uploaded through command options, served at their url. */
  readonly attachments = new Map<string, SimAttachment>();

  /** This user typing a command: where what they name is looked up, and where what they upload is kept. */
  private typist(): Typist {
    return {
      id: this.id,
      name: this.name,
      core: this.core,
      attachments: this.attachments,
      channel: (ref) => this.ctx.resolveChannel(ref),
      attachmentUrl: (channelId, id, filename) => this.ctx.attachmentUrl(channelId, id, filename),
    };
  }

  /** Runs a slash command in a channel ('dm' for the DM with the bot). */
  slash(ref: ChannelRef, name: string, input: SlashInput = {}): InteractionHandle {
    const ch = this.channel(ref);
    if (ch.guildId && !has(channelPermissions(this.world, ch, this.id), P.UseApplicationCommands | P.ViewChannel)) {
      throw new SimUserError(`${this.name} cannot use commands in #${ch.name}`);
    }
    const cmd = findCommand(this.world, ch, this, name);
    const { options, resolved } = buildOptions(this.typist(), cmd, ch, input);
    const data = {
      id: cmd.id,
      name: cmd.name,
      type: 1,
      ...(options.length ? { options } : {}),
      ...(Object.keys(resolved).length ? { resolved } : {}),
      ...(cmd.guildId ? { guild_id: cmd.guildId } : {}),
    };
    return this.base(InteractionType.ApplicationCommand, ch, data).handle;
  }

  /** Types into an autocomplete option: `focused` names it, its partial value is in options. */
  autocomplete(ref: ChannelRef, name: string, input: SlashInput & { focused: string }): InteractionHandle {
    const ch = this.channel(ref);
    const cmd = findCommand(this.world, ch, this, name);
    const { options } = buildOptions(this.typist(), cmd, ch, input, input.focused);
    const data = { id: cmd.id, name: cmd.name, type: 1, options, ...(cmd.guildId ? { guild_id: cmd.guildId } : {}) };
    return this.base(InteractionType.ApplicationCommandAutocomplete, ch, data).handle;
  }

  private visibleMessage(ref: MessageRef): SimMessage {
    const id = typeof ref === 'string' ? ref : ref.id;
    const m = this.world.messages.get(id);
    if (!m || m.deleted) throw new SimUserError(`message ${id} does not exist (deleted?)`);
    if (m.visibleTo && m.visibleTo !== this.id) throw new SimUserError(`${this.name} cannot see that ephemeral message`);
    const ch = this.world.channel(m.channelId);
    if (!ch) throw new SimUserError('the message channel is gone');
    if (!(channelPermissions(this.world, ch, this.id) & P.ViewChannel)) throw new SimUserError(`${this.name} cannot see #${ch.name}`);
    return m;
  }

  private componentInteraction(m: SimMessage, data: Record<string, unknown>): InteractionHandle {
    const ch = this.world.channel(m.channelId)!;
    return this.base(InteractionType.MessageComponent, ch, data, { message: apiMessage(this.world, m) }).handle;
  }

  /** Clicks a button. */
  click(ref: MessageRef, customId: string): InteractionHandle {
    const m = this.visibleMessage(ref);
    const c = findComponent(m, customId);
    if (c.type !== ComponentType.Button) throw new SimUserError(`${customId} is not a button`);
    if (c.disabled) throw new SimUserError(`button ${customId} is disabled`);
    return this.componentInteraction(m, { custom_id: c.custom_id, component_type: ComponentType.Button });
  }

  /** Picks values in a select menu (string, user, role, mentionable or channel select). */
  select(ref: MessageRef, customId: string, values: (string | SimUser)[]): InteractionHandle {
    const m = this.visibleMessage(ref);
    const c = findComponent(m, customId);
    const ids = values.map((v) => (typeof v === 'string' ? v : v.id));
    const data = selectData(this.world, m, c, customId, ids);
    return this.componentInteraction(m, data);
  }

  /**
   * Submits a modal the bot showed this user (the latest with that custom_id), with values by text
   * input custom_id. Inputs not given are left empty (refused when required).
   */
  submitModal(customId: string, fields: Record<string, string>, options: { from?: InteractionHandle } = {}): InteractionHandle {
    const shown = [...this.ctx.interactions.all.values()]
      .filter((i) => i.userId === this.id && (!options.from || i.id === options.from.id))
      .map((i) => ({ i, cb: i.callbacks[0] }))
      .filter(({ cb }) => cb?.type === InteractionResponseType.Modal && cb.data?.custom_id === customId)
      .pop();
    if (!shown) throw new SimUserError(`no modal ${customId} was shown to ${this.name}`);
    const components = modalComponents(shown.cb!.data, customId, fields);
    const source = shown.i.sourceMessageId ? this.world.messages.get(shown.i.sourceMessageId) : undefined;
    const ch = this.world.channel(shown.i.channelId)!;
    return this.base(
      InteractionType.ModalSubmit,
      ch,
      { custom_id: customId, components },
      source ? { message: apiMessage(this.world, source) } : {},
    ).handle;
  }
}
