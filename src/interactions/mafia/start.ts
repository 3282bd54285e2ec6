import * as engine from '../../game/index.ts';
import { NO_MENTIONS } from '../../discord/presenters/format.ts';
import { err } from '../../result.ts';
import type { GameCommand } from '../../session/game-session.ts';
import { mafiaCommand } from './context.ts';
import { changeGame, changeLobbyByClick } from './game-change.ts';
import { gameHere, hostOnly, lobbyButtonGame } from './preconditions.ts';

/** Deals the roles; refused (the state unchanged) with why not. A game already started (a second press) is said as it is. */
const dealRoles: GameCommand = (s, at) => {
  const started = engine.start(s, { at });
  if (started.ok || started.error.code === 'game_started') return started;
  return err({ ...started.error, message: `The game cannot start yet: ${started.error.message}` });
};

/** /mafia start: the host deals the roles. */
export const start = mafiaCommand.subcommand({
  name: 'start',
  definition: (s) => s.setDescription('Deal the roles and begin (host)'),
  ack: 'public',
  preconditions: [gameHere, hostOnly],
  run: (_i, found) =>
    changeGame(found, dealRoles, async () => {
      await found.reply.answer({ content: 'The game has started: everyone has their role by DM.', allowedMentions: NO_MENTIONS });
      // After the reply: the AI seats get their brains (persona rendering may take a moment).
      found.deps.liveGames.seatAiLater(found.game);
    }),
});

/** The lobby's Start button: the lobby message itself shows the game has begun. */
export const startButton = mafiaCommand.button({
  id: 'start',
  ack: 'update',
  preconditions: [lobbyButtonGame, hostOnly],
  run: async (_i, found) => {
    try {
      await changeLobbyByClick(found, dealRoles);
    } finally {
      // Once stored, even if the click's answer was lost (a start that did not count left the lobby as it was).
      if (found.game.state.phase !== 'lobby') found.deps.liveGames.seatAiLater(found.game);
    }
  },
});
