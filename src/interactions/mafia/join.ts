import * as engine from '../../game/index.ts';
import { customIdArgs } from '../../discord/router.ts';
import type { ButtonInteraction } from 'discord.js';
import { refuse, seatName, tableOf, type MafiaDeps } from './context.ts';

/** The lobby's Join button: the person takes a seat under their server name. */
export async function joinButton(i: ButtonInteraction, deps: MafiaDeps): Promise<void> {
  const table = await tableOf(i, customIdArgs(i.customId)[1], deps);
  if (!table) return;
  // After a restart the lobby message is learnt from the first click on it.
  table.lobbyMessageId ??= i.message.id;
  const name = seatName(i);
  const joined = await table.submit((s, at) => engine.join(s, { player: { id: i.user.id, name, kind: 'human', userId: i.user.id }, at }));
  if (!joined.ok) return refuse(i, joined.error.message);
  // The lobby embed is re-rendered by the table's output; this only acknowledges the click.
  await i.deferUpdate();
}
