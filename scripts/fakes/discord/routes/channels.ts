/** /channels/...: channels, messages, typing, permission overwrites, threads and their members. */
import { ChannelType } from 'discord.js';
import type { SimCore } from '../core.ts';
import { deleteInBulk } from '../message-changes.ts';
import { DiscordHttpError, cannotDmUser, invalidForm, missingPermissions, unknownMember, unknownOverwrite } from '../errors.ts';
import { created, noContent, ok, type Router } from '../http.ts';
import type { SimChannel } from '../model.ts';
import { channelPermissions, has, isThread, P } from '../permissions.ts';
import { apiChannel, apiMember, apiMessage, apiThreadMember } from '../serialize.ts';

/** The threads the bot may start here. */
type ThreadType = ChannelType.PublicThread | ChannelType.PrivateThread;

const THREAD_TYPES: readonly number[] = [ChannelType.PublicThread, ChannelType.PrivateThread];

function isThreadType(type: number): type is ThreadType {
  return THREAD_TYPES.includes(type);
}

export function channelRoutes(router: Router, core: SimCore): void {
  const { world } = core;

  router.add('GET', '/channels/:channelId', ({ params }) => ok(apiChannel(world, core.botChannel(params.channelId!))));

  router.add('PATCH', '/channels/:channelId', ({ params, body }) => {
    const ch = core.botChannel(params.channelId!);
    const b = core.requireMessageBody(body);
    if (isThread(ch)) {
      if (ch.ownerId !== core.botUserId) core.requireBot(ch, P.ManageThreads);
      if (typeof b.name === 'string') ch.name = b.name;
      const meta = ch.threadMeta!;
      if (typeof b.archived === 'boolean') {
        meta.archived = b.archived;
        meta.archiveTimestamp = core.now();
      }
      if (typeof b.locked === 'boolean') meta.locked = b.locked;
      if (typeof b.invitable === 'boolean') meta.invitable = b.invitable;
      if (typeof b.auto_archive_duration === 'number') meta.autoArchiveDuration = b.auto_archive_duration;
    } else {
      core.requireBot(ch, P.ManageChannels);
      if (typeof b.name === 'string') {
        if (b.name.length < 1 || b.name.length > 100)
          throw invalidForm(['name'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
        ch.name = b.name;
      }
      if ('topic' in b) ch.topic = b.topic ?? null;
      if (Array.isArray(b.permission_overwrites)) {
        core.requireBot(ch, P.ManageRoles);
        ch.overwrites = b.permission_overwrites.map((o: any) => ({
          id: String(o.id),
          type: Number(o.type) === 1 ? 1 : 0,
          allow: BigInt(o.allow ?? 0),
          deny: BigInt(o.deny ?? 0),
        }));
      }
    }
    if (typeof b.rate_limit_per_user === 'number') ch.rateLimitPerUser = b.rate_limit_per_user;
    core.dispatchChannelUpdate(ch);
    return ok(apiChannel(world, ch));
  });

  router.add('DELETE', '/channels/:channelId', ({ params }) => {
    const ch = core.botChannel(params.channelId!);
    core.requireBot(ch, isThread(ch) ? P.ManageThreads : P.ManageChannels);
    core.removeChannel(ch);
    return ok(apiChannel(world, ch));
  });

  // ------------------------------------------------------------ messages

  const sendable = (ch: SimChannel) => {
    if (ch.type === ChannelType.DM) {
      const user = ch.recipientId ? world.users.get(ch.recipientId) : undefined;
      if (user && !user.dmsOpen) throw cannotDmUser();
      return;
    }
    core.requireBot(ch, P.SendMessages);
  };

  router.add('GET', '/channels/:channelId/messages', ({ params, query }) => {
    const ch = core.botChannel(params.channelId!);
    if (ch.guildId) core.requireBot(ch, P.ReadMessageHistory);
    const limit = Math.min(Number(query.get('limit') ?? 50), 100);
    let list = world.messagesOf(ch.id).filter((m) => !m.visibleTo);
    const before = query.get('before');
    const after = query.get('after');
    const around = query.get('around');
    if (before) list = list.filter((m) => BigInt(m.id) < BigInt(before));
    if (after) list = list.filter((m) => BigInt(m.id) > BigInt(after));
    if (around) {
      const i = list.findIndex((m) => m.id === around);
      if (i >= 0) list = list.slice(Math.max(0, i - Math.floor(limit / 2)), i + Math.ceil(limit / 2));
    }
    // Newest first, like Discord; `after` pages start right after the id.
    const picked = after ? list.slice(0, limit) : list.slice(-limit);
    return ok(picked.reverse().map((m) => apiMessage(world, m)));
  });

  router.add('GET', '/channels/:channelId/messages/:messageId', ({ params }) => {
    const ch = core.botChannel(params.channelId!);
    return ok(apiMessage(world, core.messageIn(ch.id, params.messageId!)));
  });

  router.add('POST', '/channels/:channelId/messages', ({ params, body, files }) => {
    const ch = core.botChannel(params.channelId!);
    sendable(ch);
    const b = core.requireMessageBody(body);
    if (files.length > 0) core.requireBot(ch, P.AttachFiles);
    const msg = core.createMessage({ channelId: ch.id, authorId: core.botUserId, body: b, files });
    return ok(apiMessage(world, msg));
  });

  router.add('PATCH', '/channels/:channelId/messages/:messageId', ({ params, body, files }) => {
    const ch = core.botChannel(params.channelId!);
    const msg = core.messageIn(ch.id, params.messageId!);
    const b = core.requireMessageBody(body);
    if (msg.authorId !== core.botUserId) {
      // Others' messages: only flags (suppress embeds) with Manage Messages.
      const onlyFlags = Object.keys(b).every((k) => k === 'flags');
      if (!onlyFlags) core.assertOwnMessage(msg);
      core.requireBot(ch, P.ManageMessages);
    }
    core.editMessage(msg, b, files);
    return ok(apiMessage(world, msg));
  });

  router.add('DELETE', '/channels/:channelId/messages/:messageId', ({ params }) => {
    const ch = core.botChannel(params.channelId!);
    const msg = core.messageIn(ch.id, params.messageId!);
    if (msg.authorId !== core.botUserId) {
      if (ch.type === ChannelType.DM) throw new DiscordHttpError(403, 50003, 'Cannot execute action on a DM channel');
      core.requireBot(ch, P.ManageMessages);
    }
    core.deleteMessage(msg);
    return noContent();
  });

  router.add('POST', '/channels/:channelId/messages/bulk-delete', ({ params, body }) => {
    const ch = core.botChannel(params.channelId!);
    core.requireBot(ch, P.ManageMessages);
    // Snowflakes should come as strings, but JSON may carry numbers: each is looked up as text.
    const ids: unknown[] = Array.isArray(body?.messages) ? body.messages : [];
    deleteInBulk(core, ch, ids.map(String));
    return noContent();
  });

  // Reactions: accepted and recorded in the call log only.
  router.add('PUT', '/channels/:channelId/messages/:messageId/reactions/:emoji/@me', ({ params }) => {
    const ch = core.botChannel(params.channelId!);
    core.messageIn(ch.id, params.messageId!);
    core.requireBot(ch, P.AddReactions);
    return noContent();
  });

  router.add('POST', '/channels/:channelId/typing', ({ params }) => {
    const ch = core.botChannel(params.channelId!);
    sendable(ch);
    world.typing.push({ channelId: ch.id, userId: core.botUserId, at: Date.now() });
    core.changed();
    return noContent();
  });

  // ------------------------------------------------------------ permission overwrites

  router.add('PUT', '/channels/:channelId/permissions/:overwriteId', ({ params, body }) => {
    const ch = core.botChannel(params.channelId!);
    if (isThread(ch)) throw invalidForm(['channel_id'], 'CHANNEL_TYPE_INVALID', 'Threads have no permission overwrites');
    core.requireBot(ch, P.ManageRoles);
    const b = core.requireMessageBody(body);
    const type = Number(b.type);
    if (type !== 0 && type !== 1) throw invalidForm(['type'], 'BASE_TYPE_CHOICES', 'Value must be one of (0, 1).');
    const allow = BigInt(b.allow ?? 0);
    const deny = BigInt(b.deny ?? 0);
    // A bot can only grant or deny permissions it has itself.
    const own = channelPermissions(world, ch, core.botUserId);
    if (((allow | deny) & ~own) !== 0n) throw missingPermissions();
    const id = params.overwriteId!;
    const existing = ch.overwrites.find((o) => o.id === id);
    if (existing) Object.assign(existing, { type, allow, deny });
    else ch.overwrites.push({ id, type, allow, deny });
    core.dispatchChannelUpdate(ch);
    return noContent();
  });

  router.add('DELETE', '/channels/:channelId/permissions/:overwriteId', ({ params }) => {
    const ch = core.botChannel(params.channelId!);
    core.requireBot(ch, P.ManageRoles);
    const i = ch.overwrites.findIndex((o) => o.id === params.overwriteId);
    if (i < 0) throw unknownOverwrite();
    ch.overwrites.splice(i, 1);
    core.dispatchChannelUpdate(ch);
    return noContent();
  });

  // ------------------------------------------------------------ threads

  const createThread = (parent: SimChannel, b: Record<string, any>, type: ThreadType, starter?: string): SimChannel => {
    if (parent.type !== ChannelType.GuildText)
      throw invalidForm(['type'], 'CHANNEL_TYPE_INVALID', 'Threads can only be created in text channels here');
    if (typeof b.name !== 'string' || b.name.length < 1 || b.name.length > 100) {
      throw invalidForm(['name'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
    }
    core.requireBot(parent, type === ChannelType.PrivateThread ? P.CreatePrivateThreads : P.CreatePublicThreads);
    const now = core.now();
    const thread: SimChannel = {
      id: starter ?? core.ids.next(),
      type,
      guildId: parent.guildId,
      name: b.name,
      topic: null,
      position: 0,
      parentId: parent.id,
      overwrites: [],
      recipientId: null,
      ownerId: core.botUserId,
      threadMeta: {
        archived: false,
        locked: false,
        invitable: b.invitable ?? true,
        autoArchiveDuration: b.auto_archive_duration ?? 4320,
        createTimestamp: now,
        archiveTimestamp: now,
      },
      threadMembers: new Map([[core.botUserId, now]]),
      messageCount: 0,
      lastMessageId: null,
      rateLimitPerUser: b.rate_limit_per_user ?? 0,
      deleted: false,
    };
    world.channels.set(thread.id, thread);
    core.gateway.dispatch(
      'THREAD_CREATE',
      { ...apiChannel(world, thread), newly_created: true, member: apiThreadMember(thread, core.botUserId, now) },
      1,
    );
    core.changed();
    return thread;
  };

  router.add('POST', '/channels/:channelId/threads', ({ params, body }) => {
    const parent = core.botChannel(params.channelId!);
    const b = core.requireMessageBody(body);
    const type = b.type === undefined ? ChannelType.PrivateThread : Number(b.type);
    if (!isThreadType(type)) throw invalidForm(['type'], 'BASE_TYPE_CHOICES', 'Value must be one of (11, 12).');
    return created(apiChannel(world, createThread(parent, b, type)));
  });

  router.add('POST', '/channels/:channelId/messages/:messageId/threads', ({ params, body }) => {
    const parent = core.botChannel(params.channelId!);
    const starter = core.messageIn(parent.id, params.messageId!);
    if (world.channels.has(starter.id)) throw new DiscordHttpError(400, 160004, 'A thread has already been created for this message');
    return created(apiChannel(world, createThread(parent, core.requireMessageBody(body), ChannelType.PublicThread, starter.id)));
  });

  const threadOr400 = (id: string): SimChannel => {
    const ch = core.botChannel(id);
    if (!isThread(ch)) throw invalidForm(['channel_id'], 'CHANNEL_TYPE_INVALID', 'Not a thread');
    return ch;
  };

  const membersUpdate = (thread: SimChannel, added: string[], removed: string[]) => {
    core.dispatchToChannelViewers(
      'THREAD_MEMBERS_UPDATE',
      {
        id: thread.id,
        guild_id: thread.guildId,
        member_count: Math.min(thread.threadMembers.size, 50),
        added_members: added.map((userId) => {
          const member = world.guilds.get(thread.guildId!)?.members.get(userId);
          return {
            ...apiThreadMember(thread, userId, thread.threadMembers.get(userId) ?? core.now()),
            ...(member ? { member: apiMember(world, member) } : {}),
            presence: null,
          };
        }),
        removed_member_ids: removed,
      },
      thread,
    );
    core.changed();
  };

  router.add('PUT', '/channels/:channelId/thread-members/:userId', ({ params }) => {
    const thread = threadOr400(params.channelId!);
    const userId = params.userId === '@me' ? core.botUserId : params.userId!;
    const guild = world.guilds.get(thread.guildId!);
    if (!guild?.members.has(userId)) throw unknownMember();
    if (thread.threadMeta?.archived) throw new DiscordHttpError(400, 50083, 'Thread is archived');
    const perms = channelPermissions(world, thread, core.botUserId);
    if (
      thread.type === ChannelType.PrivateThread &&
      userId !== core.botUserId &&
      !has(perms, P.ManageThreads) &&
      !thread.threadMeta?.invitable
    ) {
      throw missingPermissions();
    }
    if (!has(perms, P.SendMessages)) throw missingPermissions();
    if (!thread.threadMembers.has(userId)) {
      thread.threadMembers.set(userId, core.now());
      membersUpdate(thread, [userId], []);
    }
    return noContent();
  });

  router.add('DELETE', '/channels/:channelId/thread-members/:userId', ({ params }) => {
    const thread = threadOr400(params.channelId!);
    const userId = params.userId === '@me' ? core.botUserId : params.userId!;
    if (userId !== core.botUserId && thread.ownerId !== core.botUserId) core.requireBot(thread, P.ManageThreads);
    if (thread.threadMembers.delete(userId)) membersUpdate(thread, [], [userId]);
    return noContent();
  });

  router.add('GET', '/channels/:channelId/thread-members', ({ params }) => {
    const thread = threadOr400(params.channelId!);
    return ok([...thread.threadMembers].map(([userId, at]) => apiThreadMember(thread, userId, at)));
  });

  router.add('GET', '/channels/:channelId/thread-members/:userId', ({ params }) => {
    const thread = threadOr400(params.channelId!);
    const at = thread.threadMembers.get(params.userId!);
    if (!at) throw unknownMember();
    return ok(apiThreadMember(thread, params.userId!, at));
  });
}
