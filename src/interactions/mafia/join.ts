import * as engine from '../../game/index.ts';
import { mafiaCommand, seatName } from './context.ts';
import { changeGame } from './game-change.ts';
import { lobbyButtonGame } from './preconditions.ts';

/** The lobby's Join button: the person takes a seat under their server name. */
export const joinButton = mafiaCommand.button({
  id: 'join',
  // The lobby embed is re-rendered by the game's output once the seat is stored; the click itself is only acknowledged.
  ack: 'update',
  preconditions: [lobbyButtonGame],
  run: (i, found) => {
    const name = seatName(i);
    return changeGame(
      i,
      found,
      (s, at) => engine.join(s, { player: { id: i.user.id, name, kind: 'human', userId: i.user.id }, at }),
      () => Promise.resolve(),
    );
  },
});
