import * as engine from '../../game/index.ts';
import { NO_MENTIONS } from '../../discord/presenters/format.ts';
import { mafiaCommand, seatName } from './context.ts';
import { changeGame } from './game-change.ts';
import { gameHere, hostOrManager } from './preconditions.ts';

/** /mafia end: the host, or anyone with Manage Server, stops this channel's game. */
export const end = mafiaCommand.subcommand({
  name: 'end',
  definition: (s) => s.setDescription('Stop the game in this channel (host or Manage Server)'),
  ack: 'public',
  preconditions: [gameHere, hostOrManager],
  run: (i, found) => {
    const by = seatName(i);
    return changeGame(
      found,
      (s, at) => engine.cancel(s, { by: i.user.id, reason: `ended by ${by}`, at }),
      () => found.reply.answer({ content: `${by} ended the game.`, allowedMentions: NO_MENTIONS }),
    );
  },
});
