/** A person adds someone to a thread from the Discord client (an @mention in it, or "Add members"). */
import { ChannelType } from 'discord.js';
import type { SimCore } from './core.ts';
import { SimUserError } from './errors.ts';
import type { SimChannel } from './model.ts';
import { channelPermissions, has, isThread, P } from './permissions.ts';
import { apiMember, apiThreadMember } from './serialize.ts';

/**
 * As Discord allows it: the inviter must see and write in the thread; into a private thread only
 * when it is invitable or they may manage threads. Otherwise the client refuses (SimUserError).
 */
export function inviteToThread(core: SimCore, byUserId: string, thread: SimChannel, userId: string): void {
  const world = core.world;
  if (!isThread(thread)) throw new SimUserError(`#${thread.name} is not a thread`);
  const perms = channelPermissions(world, thread, byUserId);
  if (!has(perms, P.ViewChannel | P.SendMessages)) throw new SimUserError(`they cannot write in #${thread.name}`);
  if (thread.type === ChannelType.PrivateThread && !thread.threadMeta?.invitable && !has(perms, P.ManageThreads)) {
    throw new SimUserError(`only moderators may add people to #${thread.name}`);
  }
  const member = world.guilds.get(thread.guildId ?? '')?.members.get(userId);
  if (!member) throw new SimUserError('they are not in the server');
  if (thread.threadMembers.has(userId)) return;
  const at = core.now();
  thread.threadMembers.set(userId, at);
  core.dispatchToChannelViewers(
    'THREAD_MEMBERS_UPDATE',
    {
      id: thread.id,
      guild_id: thread.guildId,
      member_count: Math.min(thread.threadMembers.size, 50),
      added_members: [{ ...apiThreadMember(thread, userId, at), member: apiMember(world, member), presence: null }],
      removed_member_ids: [],
    },
    thread,
  );
  core.changed();
}
