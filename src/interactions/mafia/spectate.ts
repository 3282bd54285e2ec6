import type { GameState } from '../../game/index.ts';
import { NO_MENTIONS } from '../../discord/presenters/format.ts';
import { mafiaCommand } from './context.ts';
import { gameHere } from './preconditions.ts';

/** Why this person may not watch from this game's graveyard, or null when they may. */
function refusal(state: GameState, userId: string): string | null {
  const me = state.players.find((p) => p.kind === 'human' && p.userId === userId);
  if (me?.alive) return 'You are playing in this game: its graveyard is for the dead and spectators. You join it if you die.';
  if (state.phase === 'lobby') return 'The game has not started yet: spectators join its graveyard once it has.';
  // The dead of this game may always come back in (they may have left the thread).
  if (!me && !state.settings.rules.spectators) {
    return 'The host did not allow spectators in this game (`spectators` of `/mafia create`). The dead join the graveyard on their own.';
  }
  return null;
}

/**
 * /mafia spectate: a person not seated (or dead in it) joins the running game's graveyard thread. A
 * command rather than a button: the lobby's buttons are gone once the game starts, when watching
 * begins, and anyone in the channel can use it at any moment of the game.
 */
export const spectate = mafiaCommand.subcommand({
  name: 'spectate',
  definition: (s) => s.setDescription("Watch this channel's game from its graveyard thread (if the host allows spectators)"),
  preconditions: [gameHere],
  run: async (i, { game, deps, ack, reply }) => {
    const refused = refusal(game.state, i.user.id);
    if (refused) return reply.privately(refused);
    // Opening the thread and adding them are a few calls to Discord.
    await ack();
    const joined = await deps.liveGames.output.graveyard.spectate(game, i.user.id);
    if (!joined.ok) return reply.privately(joined.error);
    await reply.answer({
      content: `👻 You are in the graveyard: <#${joined.value}>. Talk with the dead there, and watch the AI players think. Say nothing of it to the living.`,
      allowedMentions: NO_MENTIONS,
    });
  },
});
