import type { ChatInputCommandInteraction } from 'discord.js';
import * as engine from '../../game/index.ts';
import type { InteractionRouter } from '../../discord/router.ts';
import { NO_MENTIONS } from '../../discord/presenters/format.ts';
import { MAFIA } from './definition.ts';
import { canManageServer, isHost, refuse, seatName, tableHere, type MafiaDeps } from './context.ts';

/** /mafia end: the host, or anyone with Manage Server (a host who left must not block the channel). */
async function end(i: ChatInputCommandInteraction, deps: MafiaDeps): Promise<void> {
  const table = await tableHere(i, deps);
  if (!table) return;
  if (!isHost(table, i.user.id) && !canManageServer(i)) return refuse(i, 'Only the host or someone with Manage Server can end this game.');
  const by = seatName(i);
  const ended = await table.submit((s, at) => engine.cancel(s, { by: i.user.id, reason: `ended by ${by}`, at }));
  if (!ended.ok) return refuse(i, ended.error.message);
  await i.reply({ content: `${by} ended the game.`, allowedMentions: NO_MENTIONS });
}

export function registerEnd(router: InteractionRouter, deps: MafiaDeps): void {
  router.onSlash(MAFIA, 'end', (i) => end(i, deps));
}
