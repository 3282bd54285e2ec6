/** The simulator's world: plain records, mutated by the REST routes and the simulated users. */
import type { ChannelType } from 'discord.js';

export interface SimUserRecord {
  id: string;
  username: string;
  globalName: string | null;
  bot: boolean;
  /** False: the bot gets 50007 Cannot send messages to this user. */
  dmsOpen: boolean;
}

export interface SimRole {
  id: string;
  guildId: string;
  name: string;
  permissions: bigint;
  position: number;
  managed: boolean;
}

export interface SimMember {
  userId: string;
  guildId: string;
  roles: string[];
  nick: string | null;
  joinedAt: string;
}

interface SimOverwrite {
  id: string;
  /** 0 role, 1 member */
  type: 0 | 1;
  allow: bigint;
  deny: bigint;
}

interface SimThreadMeta {
  archived: boolean;
  locked: boolean;
  invitable: boolean;
  autoArchiveDuration: number;
  createTimestamp: string;
  archiveTimestamp: string;
}

export interface SimChannel {
  id: string;
  /** 0 text, 1 DM, 11 public thread, 12 private thread */
  type: ChannelType;
  guildId: string | null;
  name: string | null;
  topic: string | null;
  position: number;
  parentId: string | null;
  overwrites: SimOverwrite[];
  /** DMs: the human on the other side. */
  recipientId: string | null;
  /** Threads */
  ownerId: string | null;
  threadMeta: SimThreadMeta | null;
  threadMembers: Map<string, string>; // userId -> join timestamp
  messageCount: number;
  lastMessageId: string | null;
  rateLimitPerUser: number;
  deleted: boolean;
}

interface SimEmbed {
  [key: string]: unknown;
}

export interface SimAttachment {
  id: string;
  filename: string;
  size: number;
  contentType: string | null;
  description: string | null;
  url: string;
  data: Buffer;
}

export interface SimMessage {
  id: string;
  channelId: string;
  guildId: string | null;
  authorId: string;
  /** Name shown: webhook username, member nick, or global/user name. */
  displayName: string;
  avatarUrl: string | null;
  content: string;
  embeds: SimEmbed[];
  components: unknown[];
  attachments: SimAttachment[];
  flags: number;
  webhookId: string | null;
  applicationId: string | null;
  /** Messages that answer an interaction. */
  interactionId: string | null;
  /** Ephemeral: only this user sees it. */
  visibleTo: string | null;
  /** Who ran the interaction this message answers. */
  interactionUserId: string | null;
  interactionType: number | null;
  mentionEveryone: boolean;
  mentions: string[];
  mentionRoles: string[];
  referencedMessageId: string | null;
  tts: boolean;
  createdAt: string;
  editedAt: string | null;
  deleted: boolean;
  /** Every version of the content, oldest first (edits append). */
  history: { content: string; embeds: SimEmbed[]; components: unknown[]; at: string }[];
  /** Message type: 0 default, 19 reply, 20 chat input command, 21 thread starter ... */
  type: number;
  nonce: string | null;
}

export interface SimWebhook {
  id: string;
  token: string;
  guildId: string;
  channelId: string;
  name: string;
  avatar: string | null;
  creatorId: string;
  applicationId: string | null;
  deleted: boolean;
}

export interface SimCommand {
  id: string;
  applicationId: string;
  guildId: string | null;
  name: string;
  description: string;
  type: number;
  options: any[];
  defaultMemberPermissions: string | null;
  dmPermission: boolean | null;
  contexts: number[] | null;
  integrationTypes: number[] | null;
  nsfw: boolean;
  version: string;
  raw: Record<string, unknown>;
}

export interface SimGuild {
  id: string;
  name: string;
  ownerId: string;
  members: Map<string, SimMember>;
  roles: Map<string, SimRole>;
  joinedAt: string;
}

export interface RestCall {
  method: string;
  /** Decoded path below /api/v10, e.g. /channels/123/messages */
  path: string;
  /** Path with ids replaced: /channels/:id/messages */
  route: string;
  query: Record<string, string>;
  body: unknown;
  files: { name: string; filename: string; size: number; contentType: string | null }[];
  status: number;
  response: unknown;
  at: number;
  auth: 'bot' | 'none' | 'bad';
}

export interface TypingEvent {
  channelId: string;
  userId: string;
  at: number;
}

export class World {
  readonly users = new Map<string, SimUserRecord>();
  readonly guilds = new Map<string, SimGuild>();
  readonly channels = new Map<string, SimChannel>();
  readonly messages = new Map<string, SimMessage>();
  /** channelId -> message ids in order */
  readonly channelMessages = new Map<string, string[]>();
  readonly webhooks = new Map<string, SimWebhook>();
  readonly commands = new Map<string, SimCommand>();
  readonly typing: TypingEvent[] = [];
  /** userId -> DM channel id between that user and the bot */
  readonly dmChannels = new Map<string, string>();

  channel(id: string): SimChannel | undefined {
    const c = this.channels.get(id);
    return c && !c.deleted ? c : undefined;
  }

  messagesOf(channelId: string): SimMessage[] {
    const ids = this.channelMessages.get(channelId) ?? [];
    const out: SimMessage[] = [];
    for (const id of ids) {
      const m = this.messages.get(id);
      if (m && !m.deleted) out.push(m);
    }
    return out;
  }

  addMessage(m: SimMessage): void {
    this.messages.set(m.id, m);
    let list = this.channelMessages.get(m.channelId);
    if (!list) this.channelMessages.set(m.channelId, (list = []));
    list.push(m.id);
    const ch = this.channels.get(m.channelId);
    if (ch) {
      ch.lastMessageId = m.id;
      ch.messageCount++;
    }
  }

  guildOfChannel(ch: SimChannel): SimGuild | undefined {
    return ch.guildId ? this.guilds.get(ch.guildId) : undefined;
  }

  displayName(userId: string, guildId: string | null): string {
    const u = this.users.get(userId);
    const member = guildId ? this.guilds.get(guildId)?.members.get(userId) : undefined;
    return member?.nick ?? u?.globalName ?? u?.username ?? userId;
  }
}
