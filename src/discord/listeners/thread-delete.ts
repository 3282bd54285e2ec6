import type { AnyThreadChannel } from 'discord.js';
import type { LiveGames } from '../live-games.ts';

/** threadDelete (THREAD_DELETE): a running game's Mafia thread deleted, the Mafia chat by DM from then on. */
export function onThreadDelete(games: LiveGames) {
  return (thread: AnyThreadChannel): void => {
    const game = thread.parentId ? games.liveInChannel(thread.parentId) : undefined;
    if (game?.mafiaThreadId === thread.id && game.state.phase !== 'ended') games.output.mafiaThreadGone(game);
  };
}
