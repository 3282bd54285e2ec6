/** Discord's permission algorithm: base (roles, owner, admin) then channel overwrites; threads use the parent. */
import { ChannelType, PermissionFlagsBits } from 'discord.js';
import type { SimChannel, World } from './model.ts';

export const P = PermissionFlagsBits;
const ALL_PERMISSIONS = Object.values(PermissionFlagsBits).reduce((a, b) => a | b, 0n);

/** What @everyone may do in a fresh server. */
export const EVERYONE_DEFAULT =
  P.ViewChannel |
  P.SendMessages |
  P.SendMessagesInThreads |
  P.CreatePublicThreads |
  P.CreatePrivateThreads |
  P.EmbedLinks |
  P.AttachFiles |
  P.ReadMessageHistory |
  P.AddReactions |
  P.UseApplicationCommands |
  P.UseExternalEmojis |
  P.CreateInstantInvite |
  P.ChangeNickname |
  P.Connect |
  P.Speak;

/** What a bot invited with a sensible scope gets (no Administrator). */
export const BOT_DEFAULT =
  P.ViewChannel |
  P.SendMessages |
  P.SendMessagesInThreads |
  P.CreatePublicThreads |
  P.CreatePrivateThreads |
  P.ManageThreads |
  P.EmbedLinks |
  P.AttachFiles |
  P.ReadMessageHistory |
  P.AddReactions |
  P.UseExternalEmojis |
  P.ManageWebhooks |
  P.ManageRoles |
  P.ManageMessages |
  P.UseApplicationCommands |
  P.MentionEveryone;

function basePermissions(world: World, guildId: string, userId: string): bigint {
  const guild = world.guilds.get(guildId);
  if (!guild) return 0n;
  if (guild.ownerId === userId) return ALL_PERMISSIONS;
  const member = guild.members.get(userId);
  if (!member) return 0n;
  let perms = guild.roles.get(guildId)?.permissions ?? 0n;
  for (const roleId of member.roles) perms |= guild.roles.get(roleId)?.permissions ?? 0n;
  if (perms & P.Administrator) return ALL_PERMISSIONS;
  return perms;
}

/** Overwrites of a (non-thread) channel applied to base permissions. */
function applyOverwrites(world: World, ch: SimChannel, userId: string, base: bigint): bigint {
  if (base & P.Administrator) return ALL_PERMISSIONS;
  const guild = world.guildOfChannel(ch);
  if (!guild) return base;
  const member = guild.members.get(userId);
  let perms = base;
  const everyone = ch.overwrites.find((o) => o.id === guild.id);
  if (everyone) perms = (perms & ~everyone.deny) | everyone.allow;
  let allow = 0n;
  let deny = 0n;
  for (const o of ch.overwrites) {
    if (o.type === 0 && o.id !== guild.id && member?.roles.includes(o.id)) {
      allow |= o.allow;
      deny |= o.deny;
    }
  }
  perms = (perms & ~deny) | allow;
  const own = ch.overwrites.find((o) => o.type === 1 && o.id === userId);
  if (own) perms = (perms & ~own.deny) | own.allow;
  return perms;
}

export function isThread(ch: SimChannel): boolean {
  return ch.type === ChannelType.PublicThread || ch.type === ChannelType.PrivateThread || ch.type === ChannelType.AnnouncementThread;
}

/** Permissions of a user in a channel (0n when the user can't see it). DMs: what a DM allows. */
export function channelPermissions(world: World, ch: SimChannel, userId: string): bigint {
  if (ch.type === ChannelType.DM) {
    const allowed = ch.recipientId === userId || world.users.get(userId)?.bot;
    return allowed ? P.ViewChannel | P.SendMessages | P.EmbedLinks | P.AttachFiles | P.ReadMessageHistory | P.AddReactions : 0n;
  }
  if (!ch.guildId) return 0n;
  const base = basePermissions(world, ch.guildId, userId);
  if (base === ALL_PERMISSIONS) return ALL_PERMISSIONS;
  if (isThread(ch)) {
    const parent = ch.parentId ? world.channel(ch.parentId) : undefined;
    if (!parent) return 0n;
    let perms = applyOverwrites(world, parent, userId, base);
    if (!(perms & P.ViewChannel)) return 0n;
    if (ch.type === ChannelType.PrivateThread && !ch.threadMembers.has(userId) && !(perms & P.ManageThreads)) return 0n;
    // In threads, SendMessagesInThreads stands for SendMessages.
    perms = perms & P.SendMessagesInThreads ? perms | P.SendMessages : perms & ~P.SendMessages;
    return perms;
  }
  const perms = applyOverwrites(world, ch, userId, base);
  return perms & P.ViewChannel ? perms : 0n;
}

export function has(perms: bigint, flag: bigint): boolean {
  return (perms & flag) === flag;
}
