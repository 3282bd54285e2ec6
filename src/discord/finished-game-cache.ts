import { ChannelType, LimitedCollection, type Client } from 'discord.js';

/** What a finished game left in discord.js's caches, by id. */
export interface FinishedGamePlaces {
  readonly channelId: string;
  /** Its Mafia thread and its director's cut thread, where it had them. */
  readonly threadIds: readonly (string | null)[];
  /** The people it DMed (role cards, night menus, reminders). */
  readonly userIds: readonly string[];
}

/**
 * Threads of finished games remembered, so each game end sweeps them again: a gateway event
 * about one that arrives after its game's end (its last message, sent just before) puts it back
 * in the cache, as a partial channel no sweeper of discord.js would ever drop.
 */
const FINISHED_THREADS_KEPT = 1000;

/**
 * Drops from discord.js's caches what only a finished game used: its threads (with their messages
 * and members) and the messages of its channel and of its people's DMs. Nothing reads them again,
 * and the bot fetches by id whatever it needs later. Left alone, a bot keeps every game's threads
 * until Discord archives them (a week for the Mafia's, then discord.js's sweeper), and up to a full
 * message cache in every channel and DM a game ever used.
 */
export class FinishedGameCache {
  /** Bound: FINISHED_THREADS_KEPT. */
  private readonly threads = new LimitedCollection<string, true>({ maxSize: FINISHED_THREADS_KEPT });

  constructor(private readonly client: Client) {}

  forget(game: FinishedGamePlaces): void {
    for (const id of game.threadIds) if (id !== null) this.threads.set(id, true);
    this.client.sweepers.sweepThreads((thread) => this.threads.has(thread.id));
    const channel = this.client.channels.cache.get(game.channelId);
    if (channel?.isTextBased()) channel.messages.cache.clear();
    const people = new Set(game.userIds);
    if (people.size === 0) return;
    // One pass over the channels: discord.js finds a user's DM channel by a scan of its own.
    for (const dm of this.client.channels.cache.values()) {
      if (dm.type === ChannelType.DM && dm.recipientId && people.has(dm.recipientId)) dm.messages.cache.clear();
    }
  }

  /** Threads remembered as finished. */
  get size(): number {
    return this.threads.size;
  }
}
