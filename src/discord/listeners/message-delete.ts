import type { Message, PartialMessage } from 'discord.js';
import { messagesDeleted, type WithdrawnWordsDeps } from '../withdrawn-words.ts';

/** messageDelete (MESSAGE_DELETE, ids only): what the game took of the message is withdrawn. */
export function onMessageDelete(deps: WithdrawnWordsDeps, track: (work: Promise<void>) => void) {
  return (message: Message | PartialMessage): void =>
    track(messagesDeleted(deps, message.channelId, [message.id], message.guildId === null));
}
