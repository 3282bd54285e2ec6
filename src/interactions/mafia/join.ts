import * as engine from '../../game/index.ts';
import { mafiaCommand, seatName } from './context.ts';
import { changeLobbyByClick } from './game-change.ts';
import { lobbyButtonGame } from './preconditions.ts';

/** The lobby's Join button: the person takes a seat under their server name. */
export const joinButton = mafiaCommand.button({
  id: 'join',
  // The click is answered by the lobby with the new seat (one call); stored after.
  ack: 'update',
  preconditions: [lobbyButtonGame],
  run: (i, found) => {
    const name = seatName(i);
    return changeLobbyByClick(found, (s, at) => engine.join(s, { player: { id: i.user.id, name, kind: 'human', userId: i.user.id }, at }));
  },
});
