/** Shared state and operations of the simulator: messages, mentions, dispatches, permission checks, waiting. */
import { ChannelType, GatewayIntentBits, MessageFlags } from 'discord.js';
import {
  cannotEditOthers,
  emptyMessage,
  invalidForm,
  missingAccess,
  missingPermissions,
  threadArchived,
  unknownChannel,
  unknownMessage,
} from './errors.ts';
import { receives, type FakeGateway } from './gateway.ts';
import type { UploadedFile } from './http.ts';
import { Snowflakes } from './ids.ts';
import { isEmptyMessage, validateMessagePayload } from './limits.ts';
import type { RestCall, SimAttachment, SimChannel, SimMessage, World } from './model.ts';
import { channelPermissions, has, isThread, P } from './permissions.ts';
import { apiChannel, apiMessage } from './serialize.ts';

export interface MessageInput {
  channelId: string;
  authorId: string;
  body: Record<string, any>;
  files?: UploadedFile[];
  webhook?: { id: string; name: string; avatarUrl: string | null };
  interactionId?: string | null;
  interaction?: { userId: string; type: number };
  /** Ephemeral: seen only by this user, never dispatched. */
  visibleTo?: string | null;
  type?: number;
  /** Skip limits (messages typed by simulated humans are checked by the caller). */
  trusted?: boolean;
}

const G = GatewayIntentBits;

export class SimCore {
  readonly ids = new Snowflakes();
  readonly calls: RestCall[] = [];
  private readonly waiters = new Set<() => void>();

  constructor(
    readonly world: World,
    readonly gateway: FakeGateway,
    readonly botUserId: string,
    readonly appId: string,
    readonly baseUrl: () => string,
  ) {}

  now(): string {
    return new Date().toISOString();
  }

  /** Wakes every `until` waiting on the simulator's state. */
  changed(): void {
    for (const w of [...this.waiters]) w();
  }

  /**
   * Resolves once `condition` returns a truthy value (which is returned); rejects after timeoutMs with
   * the description. Re-checked on every change of the simulator and, unless `poll` is false, every
   * `intervalMs` (for state outside it, e.g. the bot's database). A condition that answers without a
   * promise is checked on the spot: hundreds of people waiting on their interactions are each
   * checked at every change, and the bench measures the process they run in.
   */
  until<T>(
    condition: () => T | Promise<T>,
    options: { timeoutMs?: number; intervalMs?: number; poll?: boolean; description?: string } = {},
  ): Promise<NonNullable<T>> {
    const { timeoutMs = 5000, intervalMs = 25, poll = true, description } = options;
    return new Promise((resolve, reject) => {
      // Changed by the timer, the poll and each check: a check reads it afresh after its await.
      const state = { done: false, checking: false, again: false };
      let lastError: unknown;
      const finish = (fn: () => void) => {
        state.done = true;
        clearTimeout(timer);
        clearInterval(polling);
        this.waiters.delete(check);
        fn();
      };
      const settle = (value: T) => {
        if (value) finish(() => resolve(value));
        return Boolean(value);
      };
      const check = () => {
        if (state.done) return;
        if (state.checking) {
          state.again = true;
          return;
        }
        let answer: T | Promise<T>;
        try {
          answer = condition();
        } catch (e) {
          lastError = e;
          return;
        }
        if (!(answer instanceof Promise)) {
          settle(answer);
          return;
        }
        state.checking = true;
        void (async () => {
          try {
            if (settle(await answer)) return;
          } catch (e) {
            lastError = e;
          } finally {
            state.checking = false;
          }
          if (state.again && !state.done) {
            state.again = false;
            check();
          }
        })();
      };
      const timer = setTimeout(() => {
        const why = lastError instanceof Error ? `: last error ${lastError.message}` : '';
        finish(() =>
          reject(new Error(`sim.until timed out after ${timeoutMs} ms${description ? ` waiting for ${description}` : ''}${why}`)),
        );
      }, timeoutMs);
      const polling = poll ? setInterval(check, intervalMs) : undefined;
      this.waiters.add(check);
      check();
    });
  }

  channelOr404(id: string): SimChannel {
    const ch = this.world.channel(id);
    if (!ch) throw unknownChannel();
    return ch;
  }

  /** The bot's view of a channel: 404 when unknown, 403 Missing Access when it can't see it. */
  botChannel(id: string): SimChannel {
    const ch = this.channelOr404(id);
    if (!(channelPermissions(this.world, ch, this.botUserId) & P.ViewChannel)) throw missingAccess();
    return ch;
  }

  requireBot(ch: SimChannel, flag: bigint): void {
    if (!has(channelPermissions(this.world, ch, this.botUserId), flag)) throw missingPermissions();
  }

  // ---------------------------------------------------------------- messages

  private attachmentsFrom(channelId: string, body: Record<string, any>, files: UploadedFile[], keep: SimAttachment[]): SimAttachment[] {
    const out: SimAttachment[] = [];
    const described = new Map<number, Record<string, any>>();
    if (Array.isArray(body.attachments)) {
      for (const a of body.attachments) {
        const existing = keep.find((k) => k.id === String(a?.id));
        if (existing) out.push(existing);
        else if (a?.id !== undefined) described.set(Number(a.id), a);
      }
    } else {
      out.push(...keep);
    }
    for (const f of files) {
      const meta = described.get(f.index);
      const id = this.ids.next();
      const filename = String(meta?.filename ?? f.filename);
      out.push({
        id,
        filename,
        size: f.data.length,
        contentType: f.contentType,
        description: meta?.description ?? null,
        url: `${this.baseUrl()}/attachments/${channelId}/${id}/${encodeURIComponent(filename)}`,
        data: f.data,
      });
    }
    return out;
  }

  /** Who a message pings, following allowed_mentions like Discord (default: everything parsed). */
  private mentionsOf(content: string, allowed: any, authorCanEveryone: boolean, guildId: string | null) {
    const parse: string[] =
      allowed && typeof allowed === 'object' ? (Array.isArray(allowed.parse) ? allowed.parse : []) : ['users', 'roles', 'everyone'];
    const users = new Set<string>();
    const roles = new Set<string>();
    for (const m of content.matchAll(/<@!?(\d+)>/g)) {
      const id = m[1]!;
      if (parse.includes('users') || (Array.isArray(allowed?.users) && allowed.users.includes(id))) {
        if (this.world.users.has(id)) users.add(id);
      }
    }
    for (const m of content.matchAll(/<@&(\d+)>/g)) {
      const id = m[1]!;
      if (parse.includes('roles') || (Array.isArray(allowed?.roles) && allowed.roles.includes(id))) roles.add(id);
    }
    const everyone = guildId !== null && /@(everyone|here)/.test(content) && parse.includes('everyone') && authorCanEveryone;
    return { users: [...users], roles: [...roles], everyone };
  }

  createMessage(input: MessageInput): SimMessage {
    const ch = this.channelOr404(input.channelId);
    const body = input.body;
    const files = input.files ?? [];
    if (!input.trusted) {
      validateMessagePayload(body, { fileCount: files.length, webhook: !!input.webhook });
      if (isEmptyMessage(body, files.length)) throw emptyMessage();
    }
    if (ch.threadMeta?.locked && ch.threadMeta.archived) throw threadArchived();
    if (ch.threadMeta?.archived) ch.threadMeta.archived = false; // sending unarchives
    const perms = channelPermissions(this.world, ch, input.authorId);
    const canEveryone = input.webhook ? true : has(perms, P.MentionEveryone);
    const content = typeof body.content === 'string' ? body.content : '';
    const mentions = this.mentionsOf(content, body.allowed_mentions, canEveryone, ch.guildId);
    const at = this.now();
    const flags =
      (typeof body.flags === 'number' ? body.flags : 0) &
      (MessageFlags.Ephemeral |
        MessageFlags.SuppressEmbeds |
        MessageFlags.SuppressNotifications |
        MessageFlags.IsComponentsV2 |
        MessageFlags.Loading);
    const msg: SimMessage = {
      id: this.ids.next(),
      channelId: ch.id,
      guildId: ch.guildId,
      authorId: input.webhook?.id ?? input.authorId,
      displayName: input.webhook?.name ?? this.world.displayName(input.authorId, ch.guildId),
      avatarUrl: input.webhook?.avatarUrl ?? null,
      content,
      embeds: Array.isArray(body.embeds) ? body.embeds : [],
      components: Array.isArray(body.components) ? body.components : [],
      attachments: this.attachmentsFrom(ch.id, body, files, []),
      flags: input.visibleTo ? flags | MessageFlags.Ephemeral : flags & ~MessageFlags.Ephemeral,
      webhookId: input.webhook?.id ?? null,
      applicationId: input.webhook && input.interactionId ? this.appId : input.interactionId ? this.appId : null,
      interactionId: input.interactionId ?? null,
      interactionUserId: input.interaction?.userId ?? null,
      interactionType: input.interaction?.type ?? null,
      visibleTo: input.visibleTo ?? null,
      mentionEveryone: mentions.everyone,
      mentions: mentions.users,
      mentionRoles: mentions.roles,
      referencedMessageId: body.message_reference?.message_id ? String(body.message_reference.message_id) : null,
      tts: body.tts === true,
      createdAt: at,
      editedAt: null,
      deleted: false,
      history: [],
      type: input.type ?? (body.message_reference?.message_id ? 19 : 0),
      nonce: body.nonce !== undefined ? String(body.nonce) : null,
    };
    if (input.webhook) msg.authorId = input.webhook.id;
    msg.history.push({ content: msg.content, embeds: msg.embeds, components: msg.components, at });
    this.world.addMessage(msg);
    if (!msg.visibleTo) this.dispatchMessage('MESSAGE_CREATE', msg);
    this.changed();
    return msg;
  }

  editMessage(msg: SimMessage, body: Record<string, any>, files: UploadedFile[] = [], options: { trusted?: boolean } = {}): SimMessage {
    if (!options.trusted) validateMessagePayload(body, { fileCount: files.length, edit: true });
    if ('content' in body) msg.content = body.content ?? '';
    if ('embeds' in body) msg.embeds = body.embeds ?? [];
    if ('components' in body) msg.components = body.components ?? [];
    if ('attachments' in body || files.length > 0) msg.attachments = this.attachmentsFrom(msg.channelId, body, files, msg.attachments);
    if (typeof body.flags === 'number') {
      const keep = msg.flags & (MessageFlags.Ephemeral | MessageFlags.IsComponentsV2);
      msg.flags = keep | (body.flags & (MessageFlags.SuppressEmbeds | MessageFlags.IsComponentsV2));
    }
    if ('allowed_mentions' in body || 'content' in body) {
      const ch = this.world.channels.get(msg.channelId);
      const m = this.mentionsOf(msg.content, body.allowed_mentions, true, ch?.guildId ?? null);
      msg.mentions = m.users;
      msg.mentionRoles = m.roles;
      msg.mentionEveryone = msg.mentionEveryone && m.everyone;
    }
    if (!options.trusted && !msg.content.trim() && msg.embeds.length === 0 && msg.components.length === 0 && msg.attachments.length === 0) {
      throw emptyMessage();
    }
    msg.flags &= ~MessageFlags.Loading;
    msg.editedAt = this.now();
    msg.history.push({ content: msg.content, embeds: msg.embeds, components: msg.components, at: msg.editedAt });
    if (!msg.visibleTo) this.dispatchMessage('MESSAGE_UPDATE', msg);
    this.changed();
    return msg;
  }

  deleteMessage(msg: SimMessage): void {
    msg.deleted = true;
    if (!msg.visibleTo) {
      const ch = this.world.channels.get(msg.channelId);
      this.dispatchToChannelViewers(
        'MESSAGE_DELETE',
        { id: msg.id, channel_id: msg.channelId, ...(msg.guildId ? { guild_id: msg.guildId } : {}) },
        ch,
        msg.guildId ? G.GuildMessages : G.DirectMessages,
      );
    }
    this.changed();
  }

  /** A message the bot may act on: 404 when unknown or deleted. */
  messageIn(channelId: string, messageId: string): SimMessage {
    const m = this.world.messages.get(messageId);
    if (!m || m.deleted || m.channelId !== channelId || m.visibleTo) throw unknownMessage();
    return m;
  }

  assertOwnMessage(m: SimMessage): void {
    if (m.authorId !== this.botUserId) throw cannotEditOthers();
  }

  // ---------------------------------------------------------------- dispatch

  /** MESSAGE_CREATE/UPDATE with Discord's intent rules: content hidden without MessageContent, except DMs and mentions. */
  dispatchMessage(t: 'MESSAGE_CREATE' | 'MESSAGE_UPDATE', msg: SimMessage): void {
    const ch = this.world.channels.get(msg.channelId);
    if (!ch) return;
    if (!(channelPermissions(this.world, ch, this.botUserId) & P.ViewChannel)) return;
    const full = apiMessage(this.world, msg);
    full.channel_type = ch.type;
    const intent = ch.guildId ? G.GuildMessages : G.DirectMessages;
    const privileged = ch.type === ChannelType.DM || msg.authorId === this.botUserId || msg.mentions.includes(this.botUserId);
    for (const s of this.gateway.liveSessions()) {
      if ((s.intents & intent) === 0 || !receives(s, ch.guildId)) continue;
      const seesContent = privileged || (s.intents & G.MessageContent) !== 0;
      const d = seesContent ? full : { ...full, content: '', embeds: [], attachments: [], components: [] };
      this.gateway.send(s, t, d);
    }
  }

  dispatchToChannelViewers(t: string, d: unknown, ch: SimChannel | undefined, intent: number = G.Guilds): void {
    if (ch && !(channelPermissions(this.world, ch, this.botUserId) & P.ViewChannel) && !(isThread(ch) && t === 'THREAD_MEMBERS_UPDATE'))
      return;
    this.gateway.dispatch(t, d, intent);
  }

  dispatchChannelUpdate(ch: SimChannel): void {
    const t = isThread(ch) ? 'THREAD_UPDATE' : 'CHANNEL_UPDATE';
    this.gateway.dispatch(t, apiChannel(this.world, ch), G.Guilds);
    this.changed();
  }

  /** A channel or thread is gone for everyone, with the gateway event Discord sends for it. */
  removeChannel(ch: SimChannel): void {
    ch.deleted = true;
    this.gateway.dispatch(
      isThread(ch) ? 'THREAD_DELETE' : 'CHANNEL_DELETE',
      isThread(ch) ? { id: ch.id, guild_id: ch.guildId, parent_id: ch.parentId, type: ch.type } : apiChannel(this.world, ch),
      G.Guilds,
    );
    this.changed();
  }

  requireMessageBody(body: unknown): Record<string, any> {
    if (body === undefined || body === null) return {};
    if (typeof body !== 'object' || Array.isArray(body))
      throw invalidForm([], 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType');
    return body as Record<string, any>;
  }
}
