/** The bot removed from a server (kicked or banned) as Discord does it. */
import { GatewayIntentBits } from 'discord.js';
import type { SimCore } from './core.ts';
import type { SimGuild } from './model.ts';

/**
 * The bot is no longer a member: GUILD_DELETE without `unavailable` (discord.js emits GuildDelete,
 * not GuildUnavailable), and from then on every channel of the server answers 403 Missing Access
 * (the permission check finds no member), nor is the server in the next READY. Webhooks the bot
 * made stay, as on Discord: their tokens still post.
 */
export function kickBot(core: SimCore, guild: SimGuild): void {
  guild.members.delete(core.botUserId);
  core.gateway.dispatch('GUILD_DELETE', { id: guild.id }, GatewayIntentBits.Guilds);
  core.changed();
}

/** Whether the bot is still in the server (READY lists only those). */
export function botIsMember(core: SimCore, guild: SimGuild): boolean {
  return guild.members.has(core.botUserId);
}
