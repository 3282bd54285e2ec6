import * as engine from '../../game/index.ts';
import { mafiaCommand } from './context.ts';
import { changeGame } from './game-change.ts';
import { lobbyButtonGame } from './preconditions.ts';

/** The lobby's Leave button. */
export const leaveButton = mafiaCommand.button({
  id: 'leave',
  ack: 'update',
  preconditions: [lobbyButtonGame],
  run: (i, found) =>
    changeGame(
      found,
      (s, at) => engine.leave(s, { playerId: i.user.id, at }),
      () => Promise.resolve(),
    ),
});
