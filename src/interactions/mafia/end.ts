import * as engine from '../../game/index.ts';
import { NO_MENTIONS } from '../../discord/presenters/format.ts';
import { mafiaCommand, refuse, seatName } from './context.ts';
import { gameHere, hostOrManager } from './preconditions.ts';

/** /mafia end: the host, or anyone with Manage Server, stops this channel's game. */
export const end = mafiaCommand.subcommand({
  name: 'end',
  definition: (s) => s.setDescription('Stop the game in this channel (host or Manage Server)'),
  preconditions: [gameHere, hostOrManager],
  run: async (i, { table }) => {
    const by = seatName(i);
    const ended = await table.submit((s, at) => engine.cancel(s, { by: i.user.id, reason: `ended by ${by}`, at }));
    if (!ended.ok) return refuse(i, ended.error.message);
    await i.reply({ content: `${by} ended the game.`, allowedMentions: NO_MENTIONS });
  },
});
