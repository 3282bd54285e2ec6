import { MessageFlags, type ChatInputCommandInteraction } from 'discord.js';
import type { InteractionRouter } from '../../discord/router.ts';
import { statsMessage } from '../../discord/presenters/stats.ts';
import { MAFIA } from './definition.ts';
import { refuse, type MafiaDeps } from './context.ts';

/** /mafia stats [user]: that person's record in this server (yours by default) and the server's. */
async function stats(i: ChatInputCommandInteraction, deps: MafiaDeps): Promise<void> {
  if (!i.inGuild()) return refuse(i, 'Statistics are kept per server: use `/mafia stats` in a server channel, not in DMs.');
  const user = i.options.getUser('user') ?? i.user;
  const member = i.options.getMember('user') ?? (user.id === i.user.id ? i.member : null);
  const name = member && 'displayName' in member && typeof member.displayName === 'string' ? member.displayName : user.displayName;
  // Two queries over every finished game of the server may take longer than Discord's 3 seconds.
  await i.deferReply({ flags: MessageFlags.Ephemeral });
  const [mine, server] = await Promise.all([deps.stats.userStats(i.guildId, user.id), deps.stats.serverStats(i.guildId)]);
  await i.editReply(statsMessage({ name, stats: mine }, { name: i.guild?.name ?? 'This server', stats: server }));
}

export function registerStats(router: InteractionRouter, deps: MafiaDeps): void {
  router.onSlash(MAFIA, 'stats', (i) => stats(i, deps));
}
