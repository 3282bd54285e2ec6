import type { GuildTextBasedChannel, Message, PartialMessage, ReadonlyCollection } from 'discord.js';
import { messagesDeleted, type WithdrawnWordsDeps } from '../withdrawn-words.ts';

/** messageDeleteBulk (MESSAGE_DELETE_BULK, a purge): as a deletion of each message. */
export function onMessageDeleteBulk(deps: WithdrawnWordsDeps, track: (work: Promise<void>) => void) {
  return (messages: ReadonlyCollection<string, Message<true> | PartialMessage<true>>, channel: GuildTextBasedChannel): void =>
    track(messagesDeleted(deps, channel.id, [...messages.keys()], false));
}
