/** World records → Discord API JSON (snowflakes as strings, bitfields as strings). */
import { ChannelType } from 'discord.js';
import type { SimChannel, SimCommand, SimGuild, SimMember, SimMessage, SimRole, SimWebhook, World } from './model.ts';
import { isThread } from './permissions.ts';

export function apiUser(world: World, userId: string): Record<string, unknown> {
  const u = world.users.get(userId);
  return {
    id: userId,
    username: u?.username ?? 'unknown',
    discriminator: '0',
    global_name: u?.globalName ?? null,
    avatar: null,
    bot: u?.bot ?? false,
    system: false,
    public_flags: 0,
    flags: 0,
  };
}

export function apiMember(world: World, m: SimMember, withUser = true): Record<string, unknown> {
  return {
    ...(withUser ? { user: apiUser(world, m.userId) } : {}),
    nick: m.nick,
    avatar: null,
    roles: [...m.roles],
    joined_at: m.joinedAt,
    premium_since: null,
    deaf: false,
    mute: false,
    flags: 0,
    pending: false,
    communication_disabled_until: null,
  };
}

export function apiRole(r: SimRole): Record<string, unknown> {
  return {
    id: r.id,
    name: r.name,
    color: 0,
    colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
    hoist: false,
    icon: null,
    unicode_emoji: null,
    position: r.position,
    permissions: r.permissions.toString(),
    managed: r.managed,
    mentionable: false,
    flags: 0,
  };
}

export function apiChannel(world: World, ch: SimChannel): Record<string, unknown> {
  if (ch.type === ChannelType.DM) {
    return {
      id: ch.id,
      type: ch.type,
      last_message_id: ch.lastMessageId,
      recipients: ch.recipientId ? [apiUser(world, ch.recipientId)] : [],
      flags: 0,
    };
  }
  const base: Record<string, unknown> = {
    id: ch.id,
    type: ch.type,
    guild_id: ch.guildId,
    name: ch.name,
    position: ch.position,
    parent_id: ch.parentId,
    last_message_id: ch.lastMessageId,
    rate_limit_per_user: ch.rateLimitPerUser,
    flags: 0,
  };
  if (isThread(ch)) {
    const meta = ch.threadMeta!;
    return {
      ...base,
      owner_id: ch.ownerId,
      message_count: ch.messageCount,
      total_message_sent: ch.messageCount,
      member_count: Math.min(ch.threadMembers.size, 50),
      thread_metadata: {
        archived: meta.archived,
        auto_archive_duration: meta.autoArchiveDuration,
        archive_timestamp: meta.archiveTimestamp,
        locked: meta.locked,
        invitable: meta.invitable,
        create_timestamp: meta.createTimestamp,
      },
      applied_tags: [],
    };
  }
  return {
    ...base,
    topic: ch.topic,
    nsfw: false,
    permission_overwrites: ch.overwrites.map((o) => ({
      id: o.id,
      type: o.type,
      allow: o.allow.toString(),
      deny: o.deny.toString(),
    })),
  };
}

export function apiThreadMember(ch: SimChannel, userId: string, joinedAt: string): Record<string, unknown> {
  return { id: ch.id, user_id: userId, join_timestamp: joinedAt, flags: 0 };
}

export function apiGuild(world: World, g: SimGuild, full: boolean): Record<string, unknown> {
  const channels = [...world.channels.values()].filter((c) => !c.deleted && c.guildId === g.id);
  const guild: Record<string, unknown> = {
    id: g.id,
    name: g.name,
    icon: null,
    splash: null,
    discovery_splash: null,
    banner: null,
    description: null,
    owner_id: g.ownerId,
    afk_channel_id: null,
    afk_timeout: 300,
    widget_enabled: false,
    verification_level: 0,
    default_message_notifications: 0,
    explicit_content_filter: 0,
    roles: [...g.roles.values()].map(apiRole),
    emojis: [],
    stickers: [],
    features: [],
    mfa_level: 0,
    application_id: null,
    system_channel_id: null,
    system_channel_flags: 0,
    rules_channel_id: null,
    public_updates_channel_id: null,
    safety_alerts_channel_id: null,
    max_members: 500000,
    vanity_url_code: null,
    premium_tier: 0,
    premium_subscription_count: 0,
    preferred_locale: 'en-US',
    nsfw_level: 0,
    premium_progress_bar_enabled: false,
  };
  if (!full) return guild;
  return {
    ...guild,
    joined_at: g.joinedAt,
    large: false,
    unavailable: false,
    member_count: g.members.size,
    voice_states: [],
    members: [...g.members.values()].map((m) => apiMember(world, m)),
    channels: channels
      .filter((c) => !isThread(c))
      .map((c) => {
        const { guild_id: _omit, ...rest } = apiChannel(world, c);
        return rest;
      }),
    threads: channels.filter((c) => isThread(c) && !c.threadMeta?.archived).map((c) => apiChannel(world, c)),
    presences: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
}

export function apiAttachment(a: SimMessage['attachments'][number]): Record<string, unknown> {
  return {
    id: a.id,
    filename: a.filename,
    description: a.description ?? undefined,
    content_type: a.contentType ?? undefined,
    size: a.size,
    url: a.url,
    proxy_url: a.url,
  };
}

export function apiMessage(world: World, m: SimMessage): Record<string, unknown> {
  const author = m.webhookId
    ? { id: m.webhookId, username: m.displayName, avatar: null, discriminator: '0000', bot: true, global_name: null }
    : apiUser(world, m.authorId);
  const member = m.guildId && !m.webhookId ? world.guilds.get(m.guildId)?.members.get(m.authorId) : undefined;
  const out: Record<string, unknown> = {
    id: m.id,
    type: m.type,
    channel_id: m.channelId,
    author,
    content: m.content,
    timestamp: m.createdAt,
    edited_timestamp: m.editedAt,
    tts: m.tts,
    mention_everyone: m.mentionEveryone,
    mentions: m.mentions.map((id) => apiUser(world, id)),
    mention_roles: [...m.mentionRoles],
    attachments: m.attachments.map(apiAttachment),
    embeds: m.embeds,
    components: m.components,
    pinned: false,
    flags: m.flags,
  };
  if (m.guildId) out.guild_id = m.guildId;
  if (member) out.member = apiMember(world, member, false);
  if (m.webhookId) out.webhook_id = m.webhookId;
  if (m.applicationId) out.application_id = m.applicationId;
  if (m.nonce) out.nonce = m.nonce;
  if (m.referencedMessageId) {
    const ref = world.messages.get(m.referencedMessageId);
    out.message_reference = { type: 0, message_id: m.referencedMessageId, channel_id: m.channelId, guild_id: m.guildId ?? undefined };
    out.referenced_message = ref && !ref.deleted ? apiMessage(world, { ...ref, referencedMessageId: null }) : null;
  }
  if (m.interactionId && m.interactionUserId) {
    out.interaction_metadata = {
      id: m.interactionId,
      type: m.interactionType ?? 2,
      user: apiUser(world, m.interactionUserId),
      authorizing_integration_owners: m.guildId ? { '0': m.guildId } : { '1': m.interactionUserId },
    };
  }
  return out;
}

export function apiWebhook(world: World, w: SimWebhook, withToken: boolean): Record<string, unknown> {
  return {
    id: w.id,
    type: 1,
    guild_id: w.guildId,
    channel_id: w.channelId,
    name: w.name,
    avatar: w.avatar,
    application_id: w.applicationId,
    user: apiUser(world, w.creatorId),
    ...(withToken ? { token: w.token } : {}),
  };
}

export function apiCommand(c: SimCommand): Record<string, unknown> {
  return {
    ...c.raw,
    id: c.id,
    application_id: c.applicationId,
    guild_id: c.guildId ?? undefined,
    name: c.name,
    description: c.description,
    type: c.type,
    options: c.options,
    default_member_permissions: c.defaultMemberPermissions,
    dm_permission: c.dmPermission ?? true,
    contexts: c.contexts,
    integration_types: c.integrationTypes ?? [0],
    nsfw: c.nsfw,
    version: c.version,
  };
}
