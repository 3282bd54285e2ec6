import * as engine from '../../game/index.ts';
import type { LiveGame } from '../../discord/live-games.ts';
import { NO_MENTIONS } from '../../discord/presenters/format.ts';
import { mafiaCommand, refuse } from './context.ts';
import { gameHere, hostOnly, lobbyButtonGame } from './preconditions.ts';

/** Deals the roles; null when it did, else why not (the state is then unchanged). */
async function begin(table: LiveGame): Promise<string | null> {
  const started = await table.submit((s, at) => engine.start(s, { at }));
  return started.ok ? null : `The game cannot start yet: ${started.error.message}`;
}

/** /mafia start: the host deals the roles. */
export const start = mafiaCommand.subcommand({
  name: 'start',
  definition: (s) => s.setDescription('Deal the roles and begin (host)'),
  preconditions: [gameHere, hostOnly],
  run: async (i, { deps, table }) => {
    const refused = await begin(table);
    if (refused) return refuse(i, refused);
    await i.reply({ content: 'The game has started: everyone has their role by DM.', allowedMentions: NO_MENTIONS });
    // After the reply: the AI seats get their brains (persona rendering may take a moment).
    deps.liveGames.seatAiLater(table);
  },
});

/** The lobby's Start button. */
export const startButton = mafiaCommand.button({
  id: 'start',
  preconditions: [lobbyButtonGame, hostOnly],
  run: async (i, { deps, table }) => {
    const refused = await begin(table);
    if (refused) return refuse(i, refused);
    await i.deferUpdate();
    // After the reply: the AI seats get their brains (persona rendering may take a moment).
    deps.liveGames.seatAiLater(table);
  },
});
