/** Building the simulated world: servers with their roles, members and channels, and what a new gateway session is told of them. */
import { ChannelType } from 'discord.js';
import type { SimCore } from './core.ts';
import { receives, shardOf, type GatewaySession } from './gateway.ts';
import { botIsMember } from './kick.ts';
import type { SimChannel, SimGuild, World } from './model.ts';
import { BOT_DEFAULT, EVERYONE_DEFAULT, P } from './permissions.ts';
import { apiGuild, apiMember, apiUser } from './serialize.ts';

export interface MemberSpec {
  name: string;
  /** Owns the server (all permissions). */
  owner?: boolean;
  /** Gets a role with Manage Server. */
  manageServer?: boolean;
  administrator?: boolean;
  /** Extra permissions through a role of their own. */
  permissions?: bigint;
  nick?: string;
  /** false: the bot's DMs to them fail with 50007. */
  dmsOpen?: boolean;
}

export interface ChannelSpec {
  name: string;
  topic?: string;
}

export interface GuildSpec {
  name: string;
  channels?: (string | ChannelSpec)[];
  members?: (string | MemberSpec)[];
  /** The bot's role permissions (default: BOT_DEFAULT, no Administrator). */
  botPermissions?: bigint;
  /** @everyone's permissions (default: EVERYONE_DEFAULT). */
  everyonePermissions?: bigint;
  /** An id that puts the guild on this shard of `of` shards, as Discord routes it. */
  onShard?: { shard: number; of: number };
}

/** A server with @everyone, the bot's managed role, its members (`addMember` each; an owner made up if none is named) and channels. */
export function addGuild(core: SimCore, spec: GuildSpec, addMember: (guild: SimGuild, spec: MemberSpec) => unknown): SimGuild {
  const id = spec.onShard ? idOnShard(core, spec.onShard.shard, spec.onShard.of) : core.ids.next();
  const now = core.now();
  const guild: SimGuild = { id, name: spec.name, ownerId: '', members: new Map(), roles: new Map(), joinedAt: now };
  core.world.guilds.set(id, guild);
  guild.roles.set(id, {
    id,
    guildId: id,
    name: '@everyone',
    permissions: spec.everyonePermissions ?? EVERYONE_DEFAULT,
    position: 0,
    managed: false,
  });
  const botRole = {
    id: core.ids.next(),
    guildId: id,
    name: core.world.users.get(core.botUserId)!.username,
    permissions: spec.botPermissions ?? BOT_DEFAULT,
    position: 1,
    managed: true,
  };
  guild.roles.set(botRole.id, botRole);
  guild.members.set(core.botUserId, { userId: core.botUserId, guildId: id, roles: [botRole.id], nick: null, joinedAt: now });
  const specs = (spec.members ?? []).map((m) => (typeof m === 'string' ? { name: m } : m));
  if (!specs.some((m) => m.owner)) specs.unshift({ name: `${spec.name}-owner`, owner: true });
  for (const m of specs) addMember(guild, m);
  (spec.channels ?? ['general']).forEach((c) => addChannel(core, guild, typeof c === 'string' ? { name: c } : c));
  return guild;
}

/** A fresh snowflake whose guild would live on `shard` of `of`: its timestamp moved on a few ms until it does. */
function idOnShard(core: SimCore, shard: number, of: number): string {
  for (let at = Date.now(); ; at++) {
    const id = core.ids.next(at);
    if (shardOf(id, of) === shard) return id;
  }
}

/** The user joins the server with the roles their spec gives (with GUILD_MEMBER_ADD once a bot is connected). */
export function addMember(core: SimCore, guild: SimGuild, spec: MemberSpec, userId: string): void {
  const roles: string[] = [];
  const role = (name: string, permissions: bigint) => {
    let r = [...guild.roles.values()].find((x) => x.name === name);
    if (!r) {
      r = { id: core.ids.next(), guildId: guild.id, name, permissions, position: guild.roles.size, managed: false };
      guild.roles.set(r.id, r);
    }
    roles.push(r.id);
  };
  if (spec.manageServer) role('Moderator', P.ManageGuild);
  if (spec.administrator) role('Admin', P.Administrator);
  if (spec.permissions) role(`${spec.name}-role`, spec.permissions);
  if (spec.owner) guild.ownerId = userId;
  guild.members.set(userId, { userId, guildId: guild.id, roles, nick: spec.nick ?? null, joinedAt: core.now() });
  if (core.gateway.sessions.size > 0) {
    core.gateway.dispatch('GUILD_MEMBER_ADD', { ...apiMember(core.world, guild.members.get(userId)!), guild_id: guild.id }, 1 << 1);
  }
  core.changed();
}

export function addChannel(core: SimCore, guild: SimGuild, spec: ChannelSpec): SimChannel {
  return storeChannel(core, {
    type: ChannelType.GuildText,
    guildId: guild.id,
    name: spec.name,
    topic: spec.topic ?? null,
    position: [...core.world.channels.values()].filter((c) => c.guildId === guild.id).length,
    recipientId: null,
  });
}

/** A new channel (not a thread) with nothing in it yet, kept in the world. */
export function storeChannel(
  core: SimCore,
  fields: Pick<SimChannel, 'type' | 'guildId' | 'name' | 'topic' | 'position' | 'recipientId'>,
): SimChannel {
  const ch: SimChannel = {
    id: core.ids.next(),
    ...fields,
    parentId: null,
    overwrites: [],
    ownerId: null,
    threadMeta: null,
    threadMembers: new Map(),
    messageCount: 0,
    lastMessageId: null,
    rateLimitPerUser: 0,
    deleted: false,
  };
  core.world.channels.set(ch.id, ch);
  return ch;
}

/** READY and the GUILD_CREATEs for one session: a sharded one gets only its own guilds. */
export function identifyPayloads(core: SimCore, session: Pick<GatewaySession, 'shard'>) {
  const guilds = [...core.world.guilds.values()].filter((g) => receives(session, g.id) && botIsMember(core, g));
  return {
    ready: {
      v: 10,
      user: { ...apiUser(core.world, core.botUserId), verified: true, mfa_enabled: false, email: null },
      guilds: guilds.map((g) => ({ id: g.id, unavailable: true })),
      shard: session.shard ?? [0, 1],
      application: { id: core.appId, flags: 0 },
      private_channels: [],
      presences: [],
      relationships: [],
      guild_join_requests: [],
      user_settings: {},
      geo_ordered_rtc_regions: [],
      _trace: ['discord-sim'],
    },
    guilds: guilds.map((g) => apiGuild(core.world, g, true)),
  };
}

/** The GUILD_MEMBERS_CHUNK answering a REQUEST_GUILD_MEMBERS (by ids, or by the start of a name), or null for a server it does not know. */
export function membersChunk(world: World, d: Record<string, any>): Record<string, unknown> | null {
  const guild = world.guilds.get(String(d.guild_id));
  if (!guild) return null;
  const wanted: string[] | null = d.user_ids ? [d.user_ids].flat().map(String) : null;
  const query = String(d.query ?? '').toLowerCase();
  const members = [...guild.members.values()].filter((m) =>
    wanted ? wanted.includes(m.userId) : (world.users.get(m.userId)?.username ?? '').toLowerCase().startsWith(query),
  );
  return {
    guild_id: guild.id,
    members: members.map((m) => apiMember(world, m)),
    chunk_index: 0,
    chunk_count: 1,
    not_found: wanted ? wanted.filter((id) => !guild.members.has(id)) : [],
    ...(d.nonce ? { nonce: d.nonce } : {}),
  };
}
