import type { ButtonInteraction } from 'discord.js';
import * as engine from '../../game/index.ts';
import { customIdArgs } from '../../discord/router.ts';
import { refuse, tableOf, type MafiaDeps } from './context.ts';

/** The lobby's Leave button. */
export async function leaveButton(i: ButtonInteraction, deps: MafiaDeps): Promise<void> {
  const table = await tableOf(i, customIdArgs(i.customId)[1], deps);
  if (!table) return;
  // After a restart the lobby message is learnt from the first click on it.
  table.lobbyMessageId ??= i.message.id;
  const left = await table.submit((s, at) => engine.leave(s, { playerId: i.user.id, at }));
  if (!left.ok) return refuse(i, left.error.message);
  await i.deferUpdate();
}
