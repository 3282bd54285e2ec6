/** Simulated humans: they type, click, pick and submit through the gateway like a Discord client would. */
import { ApplicationCommandOptionType as O, ChannelType, ComponentType, InteractionResponseType, InteractionType } from 'discord.js';
import type { SimCore } from './core.ts';
import { InteractionHandle } from './handle.ts';
import { randomToken } from './ids.ts';
import type { Interactions, SimInteraction } from './interactions.ts';
import { codePoints, LIMITS } from './limits.ts';
import type { SimAttachment, SimChannel, SimCommand, SimMessage, SimUserRecord } from './model.ts';
import { channelPermissions, has, P } from './permissions.ts';
import { dmChannelFor } from './routes/misc.ts';
import { SimUserError } from './errors.ts';
import { deleteAsUser, editOwnMessage } from './message-changes.ts';
import { inviteToThread } from './thread-invites.ts';
import { apiAttachment, apiChannel, apiMember, apiMessage, apiRole, apiUser } from './serialize.ts';

/** A channel given as its id, its record, or 'dm' for the user's DM with the bot. */
export type ChannelRef = string | SimChannel | { id: string };
export type MessageRef = string | SimMessage | { id: string };

interface FileInput {
  filename: string;
  content: string | Buffer;
  contentType?: string;
}

export type OptionValue = string | number | boolean | SimUser | FileInput | { id: string };

export interface SlashInput {
  subcommand?: string;
  group?: string;
  options?: Record<string, OptionValue>;
}

export interface SimUserContext {
  core: SimCore;
  interactions: Interactions;
  resolveChannel(ref: ChannelRef): SimChannel;
  defaultTimeoutMs: number;
  attachmentUrl(channelId: string, id: string, filename: string): string;
}

export { SimUserError };

/** `resolved` of an interaction: the users, members, roles, channels and attachments its options name, by id. */
type Resolved = Partial<Record<'users' | 'members' | 'roles' | 'channels' | 'attachments', Record<string, unknown>>>;

/** What a user types into a text option: text as given, a user as their mention; a record or a file is no text. */
function typedText(option: string, raw: OptionValue): string {
  if (typeof raw !== 'object') return String(raw);
  if (raw instanceof SimUser) return raw.toString();
  throw new SimUserError(`${option} takes text, not ${'filename' in raw ? 'a file' : 'a record'}`);
}

/** The id an option names: a user's or a record's own, else the id as typed. */
function namedId(option: string, raw: OptionValue): string {
  return typeof raw === 'object' && 'id' in raw ? raw.id : typedText(option, raw);
}

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
  toString(): string {
    return `<@${this.id}>`;
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
    const interaction: SimInteraction = {
      id,
      token,
      type,
      userId: this.id,
      channelId: ch.id,
      guildId: ch.guildId,
      data,
      payload,
      sourceMessageId: (extra.message as { id?: string } | undefined)?.id ?? null,
      createdAt: Date.now(),
      callbacks: [],
      rejected: [],
      originalMessageId: null,
      versionsAtDefer: null,
      followUpIds: [],
    };
    this.ctx.interactions.add(interaction);
    core.gateway.dispatch('INTERACTION_CREATE', payload);
    core.changed();
    return { interaction, handle: new InteractionHandle(core, interaction, this.ctx.defaultTimeoutMs) };
  }

  private findCommand(ch: SimChannel, name: string): SimCommand {
    const all = [...this.world.commands.values()].filter((c) => c.name === name && c.type === 1);
    const cmd = all.find((c) => c.guildId !== null && c.guildId === ch.guildId) ?? all.find((c) => c.guildId === null);
    if (!cmd) throw new SimUserError(`/${name} is not registered${ch.guildId ? ' for this server' : ' globally'}`);
    if (ch.guildId === null) {
      const dmOk = cmd.contexts ? cmd.contexts.includes(1) : cmd.dmPermission !== false;
      if (!dmOk) throw new SimUserError(`/${name} is not offered in DMs`);
    } else {
      if (cmd.contexts && !cmd.contexts.includes(0)) throw new SimUserError(`/${name} is not offered in servers`);
      if (cmd.defaultMemberPermissions !== null) {
        const needed = BigInt(cmd.defaultMemberPermissions);
        if (!has(channelPermissions(this.world, ch, this.id), needed))
          throw new SimUserError(`/${name} is hidden from ${this.name} (default_member_permissions)`);
      }
    }
    return cmd;
  }

  private buildOptions(cmd: SimCommand, ch: SimChannel, input: SlashInput, focused?: string): { options: any[]; resolved: Resolved } {
    let defs: any[] = cmd.options;
    const path: { type: number; name: string }[] = [];
    if (input.group) {
      const g = defs.find((o) => o.type === O.SubcommandGroup && o.name === input.group);
      if (!g) throw new SimUserError(`/${cmd.name} has no group ${input.group}`);
      path.push({ type: O.SubcommandGroup, name: g.name });
      defs = g.options ?? [];
    }
    if (input.subcommand) {
      const s = defs.find((o) => o.type === O.Subcommand && o.name === input.subcommand);
      if (!s) throw new SimUserError(`/${cmd.name}${input.group ? ` ${input.group}` : ''} has no subcommand ${input.subcommand}`);
      path.push({ type: O.Subcommand, name: s.name });
      defs = s.options ?? [];
    } else if (defs.some((o) => o.type === O.Subcommand || o.type === O.SubcommandGroup)) {
      throw new SimUserError(`/${cmd.name} needs a subcommand`);
    }
    const resolved: Resolved = {};
    const put = (kind: keyof Resolved, id: string, value: unknown) => ((resolved[kind] ??= {})[id] = value);
    const leaves: any[] = [];
    const given = input.options ?? {};
    for (const [name, raw] of Object.entries(given)) {
      const def = defs.find((o) => o.name === name);
      if (!def) throw new SimUserError(`/${cmd.name} has no option ${name}`);
      const isFocused = name === focused;
      let value: unknown = raw;
      if (isFocused) {
        leaves.push({ name, type: def.type, value: typedText(name, raw), focused: true });
        continue;
      }
      switch (def.type) {
        case O.String:
          value = typedText(name, raw);
          if (def.min_length !== undefined && (value as string).length < def.min_length)
            throw new SimUserError(`${name} is at least ${def.min_length} characters`);
          if (def.max_length !== undefined && (value as string).length > def.max_length)
            throw new SimUserError(`${name} is at most ${def.max_length} characters`);
          break;
        case O.Integer:
        case O.Number:
          value = Number(raw);
          if (!Number.isFinite(value) || (def.type === O.Integer && !Number.isInteger(value)))
            throw new SimUserError(`${name} must be a${def.type === O.Integer ? 'n integer' : ' number'}`);
          if (def.min_value !== undefined && (value as number) < def.min_value)
            throw new SimUserError(`${name} is at least ${def.min_value}`);
          if (def.max_value !== undefined && (value as number) > def.max_value)
            throw new SimUserError(`${name} is at most ${def.max_value}`);
          break;
        case O.Boolean:
          value = Boolean(raw);
          break;
        case O.User:
        case O.Mentionable: {
          const id = namedId(name, raw);
          const role = ch.guildId ? this.world.guilds.get(ch.guildId)?.roles.get(id) : undefined;
          if (role && def.type === O.Mentionable) {
            put('roles', id, apiRole(role));
          } else {
            if (!this.world.users.has(id)) throw new SimUserError(`${name}: unknown user ${id}`);
            put('users', id, apiUser(this.world, id));
            const member = ch.guildId ? this.world.guilds.get(ch.guildId)?.members.get(id) : undefined;
            if (member) {
              const { user: _u, ...rest } = apiMember(this.world, member);
              put('members', id, { ...rest, permissions: channelPermissions(this.world, ch, id).toString() });
            }
          }
          value = id;
          break;
        }
        case O.Channel: {
          const target = this.ctx.resolveChannel(namedId(name, raw));
          put('channels', target.id, {
            id: target.id,
            name: target.name,
            type: target.type,
            permissions: channelPermissions(this.world, target, this.id).toString(),
            ...(target.parentId ? { parent_id: target.parentId } : {}),
          });
          value = target.id;
          break;
        }
        case O.Role: {
          const roleId = namedId(name, raw);
          const role = ch.guildId ? this.world.guilds.get(ch.guildId)?.roles.get(roleId) : undefined;
          if (!role) throw new SimUserError(`${name}: unknown role ${roleId}`);
          put('roles', role.id, apiRole(role));
          value = role.id;
          break;
        }
        case O.Attachment: {
          if (typeof raw !== 'object' || !('filename' in raw)) throw new SimUserError(`${name} takes { filename, content }`);
          const f = raw;
          const id = this.core.ids.next();
          const data = Buffer.isBuffer(f.content) ? f.content : Buffer.from(f.content);
          const att: SimAttachment = {
            id,
            filename: f.filename,
            size: data.length,
            contentType: f.contentType ?? 'text/plain',
            description: null,
            url: this.ctx.attachmentUrl(ch.id, id, f.filename),
            data,
          };
          this.attachments.set(id, att);
          put('attachments', id, apiAttachment(att));
          value = id;
          break;
        }
        default:
          throw new SimUserError(`option type ${def.type} is not simulated`);
      }
      if (Array.isArray(def.choices) && def.choices.length > 0 && !def.choices.some((c: any) => c.value === value)) {
        throw new SimUserError(`${name} must be one of ${def.choices.map((c: any) => JSON.stringify(c.value)).join(', ')}`);
      }
      leaves.push({ name, type: def.type, value });
    }
    if (focused === undefined) {
      for (const def of defs) {
        if (def.required && !(def.name in given))
          throw new SimUserError(`/${cmd.name}${input.subcommand ? ` ${input.subcommand}` : ''} needs option ${def.name}`);
      }
    } else if (!(focused in given)) {
      throw new SimUserError(`autocomplete: the focused option ${focused} needs a (partial) value`);
    }
    let options: any[] = leaves;
    for (const level of [...path].reverse()) options = [{ type: level.type, name: level.name, options }];
    return { options, resolved };
  }

  /** Attachments this user uploaded through command options, served at their url. */
  readonly attachments = new Map<string, SimAttachment>();

  /** Runs a slash command in a channel ('dm' for the DM with the bot). */
  slash(ref: ChannelRef, name: string, input: SlashInput = {}): InteractionHandle {
    const ch = this.channel(ref);
    if (ch.guildId && !has(channelPermissions(this.world, ch, this.id), P.UseApplicationCommands | P.ViewChannel)) {
      throw new SimUserError(`${this.name} cannot use commands in #${ch.name}`);
    }
    const cmd = this.findCommand(ch, name);
    const { options, resolved } = this.buildOptions(cmd, ch, input);
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
    const cmd = this.findCommand(ch, name);
    const { options } = this.buildOptions(cmd, ch, input, input.focused);
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

  /** The component a person would pick: by its custom id, or the id's leading part (`vote:<game>` finds `vote:<game>:<day>`). */
  private findComponent(m: SimMessage, customId: string): any {
    const stack: any[] = [...(m.components as any[])];
    while (stack.length) {
      const c = stack.shift();
      if (!c || typeof c !== 'object') continue;
      const matches = c.custom_id === customId || (typeof c.custom_id === 'string' && c.custom_id.startsWith(`${customId}:`));
      if (matches && c.type !== ComponentType.ActionRow) return c;
      if (Array.isArray(c.components)) stack.push(...c.components);
      if (c.accessory) stack.push(c.accessory);
      if (c.component) stack.push(c.component);
    }
    const ids: string[] = [];
    const walk = (list: any[]) =>
      list.forEach((c) => {
        if (c?.custom_id) ids.push(c.custom_id);
        if (Array.isArray(c?.components)) walk(c.components);
        if (c?.accessory) walk([c.accessory]);
      });
    walk(m.components as any[]);
    throw new SimUserError(`no component ${customId} on message ${m.id} (has: ${ids.join(', ') || 'none'})`);
  }

  private componentInteraction(m: SimMessage, data: Record<string, unknown>): InteractionHandle {
    const ch = this.world.channel(m.channelId)!;
    return this.base(InteractionType.MessageComponent, ch, data, { message: apiMessage(this.world, m) }).handle;
  }

  /** Clicks a button. */
  click(ref: MessageRef, customId: string): InteractionHandle {
    const m = this.visibleMessage(ref);
    const c = this.findComponent(m, customId);
    if (c.type !== ComponentType.Button) throw new SimUserError(`${customId} is not a button`);
    if (c.disabled) throw new SimUserError(`button ${customId} is disabled`);
    return this.componentInteraction(m, { custom_id: c.custom_id, component_type: ComponentType.Button });
  }

  /** Picks values in a select menu (string, user, role, mentionable or channel select). */
  select(ref: MessageRef, customId: string, values: (string | SimUser)[]): InteractionHandle {
    const m = this.visibleMessage(ref);
    const c = this.findComponent(m, customId);
    if (c.type < ComponentType.StringSelect || c.type > ComponentType.ChannelSelect || c.type === ComponentType.TextInput) {
      throw new SimUserError(`${customId} is not a select menu`);
    }
    if (c.disabled) throw new SimUserError(`select ${customId} is disabled`);
    const ids = values.map((v) => (typeof v === 'string' ? v : v.id));
    const min = c.min_values ?? 1;
    const max = c.max_values ?? 1;
    if (ids.length < min || ids.length > max) throw new SimUserError(`${customId} takes ${min}..${max} values, got ${ids.length}`);
    const data: Record<string, unknown> = { custom_id: c.custom_id, component_type: c.type, values: ids };
    if (c.type === ComponentType.StringSelect) {
      const allowed = new Set((c.options ?? []).map((o: any) => o.value));
      const bad = ids.filter((v) => !allowed.has(v));
      if (bad.length) throw new SimUserError(`${customId} has no option ${bad.join(', ')} (options: ${[...allowed].join(', ')})`);
    } else {
      const resolved: Resolved = {};
      for (const id of ids) {
        if (this.world.users.has(id)) {
          (resolved.users ??= {})[id] = apiUser(this.world, id);
          const member = m.guildId ? this.world.guilds.get(m.guildId)?.members.get(id) : undefined;
          if (member) {
            const { user: _u, ...rest } = apiMember(this.world, member);
            (resolved.members ??= {})[id] = rest;
          }
        } else if (this.world.channel(id)) {
          const t = this.world.channel(id)!;
          (resolved.channels ??= {})[id] = { id, name: t.name, type: t.type, permissions: '0' };
        } else {
          const role = m.guildId ? this.world.guilds.get(m.guildId)?.roles.get(id) : undefined;
          if (!role) throw new SimUserError(`${customId}: unknown user/role/channel ${id}`);
          (resolved.roles ??= {})[id] = apiRole(role);
        }
      }
      data.resolved = resolved;
    }
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
    const modal = shown.cb!.data;
    const used = new Set<string>();
    const input = (c: any) => {
      const value = fields[c.custom_id] ?? '';
      used.add(c.custom_id);
      const required = c.required ?? true;
      if (required && !value) throw new SimUserError(`modal ${customId}: ${c.custom_id} is required`);
      if (value && c.min_length !== undefined && value.length < c.min_length)
        throw new SimUserError(`modal ${customId}: ${c.custom_id} is at least ${c.min_length} characters`);
      const max = Math.min(c.max_length ?? LIMITS.textInputValue, LIMITS.textInputValue);
      if (value.length > max) throw new SimUserError(`modal ${customId}: ${c.custom_id} is at most ${max} characters`);
      return { type: ComponentType.TextInput, ...(c.id !== undefined ? { id: c.id } : {}), custom_id: c.custom_id, value };
    };
    const components = (modal.components ?? []).map((top: any) => {
      if (top.type === ComponentType.Label) return { type: ComponentType.Label, id: top.id, component: input(top.component) };
      if (top.type === ComponentType.ActionRow) return { type: ComponentType.ActionRow, components: (top.components ?? []).map(input) };
      return { type: top.type, id: top.id };
    });
    const unknown = Object.keys(fields).filter((k) => !used.has(k));
    if (unknown.length) throw new SimUserError(`modal ${customId} has no input ${unknown.join(', ')}`);
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
