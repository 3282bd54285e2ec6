import * as engine from '../../game/index.ts';
import { mafiaCommand, refuse, seatName } from './context.ts';
import { lobbyButtonGame } from './preconditions.ts';

/** The lobby's Join button: the person takes a seat under their server name. */
export const joinButton = mafiaCommand.button({
  id: 'join',
  preconditions: [lobbyButtonGame],
  run: async (i, { table }) => {
    const name = seatName(i);
    const joined = await table.submit((s, at) => engine.join(s, { player: { id: i.user.id, name, kind: 'human', userId: i.user.id }, at }));
    if (!joined.ok) return refuse(i, joined.error.message);
    // The lobby embed is re-rendered by the table's output; this only acknowledges the click.
    await i.deferUpdate();
  },
});
