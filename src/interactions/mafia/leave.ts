import * as engine from '../../game/index.ts';
import { mafiaCommand, refuse } from './context.ts';
import { lobbyButtonGame } from './preconditions.ts';

/** The lobby's Leave button. */
export const leaveButton = mafiaCommand.button({
  id: 'leave',
  preconditions: [lobbyButtonGame],
  run: async (i, { table }) => {
    const left = await table.submit((s, at) => engine.leave(s, { playerId: i.user.id, at }));
    if (!left.ok) return refuse(i, left.error.message);
    await i.deferUpdate();
  },
});
