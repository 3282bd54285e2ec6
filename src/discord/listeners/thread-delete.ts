import type { AnyThreadChannel } from 'discord.js';
import type { LiveGames } from '../live-games.ts';

/** threadDelete (THREAD_DELETE): a running game's Mafia thread deleted, the Mafia chat by DM from then on. */
export function onThreadDelete(games: LiveGames) {
  return (thread: AnyThreadChannel): void => {
    const table = thread.parentId ? games.liveInChannel(thread.parentId) : undefined;
    if (table?.mafiaThreadId === thread.id && table.state.phase !== 'ended') games.output.mafiaThreadGone(table);
  };
}
