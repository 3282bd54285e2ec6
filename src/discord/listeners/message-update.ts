import type { Message, PartialMessage } from 'discord.js';
import { messageEdited, type WithdrawnWordsDeps } from '../withdrawn-words.ts';

/** messageUpdate (MESSAGE_UPDATE): a person changed a message; the game takes the change where it took the message. */
export function onMessageUpdate(deps: WithdrawnWordsDeps, track: (work: Promise<void>) => void) {
  return (_old: Message | PartialMessage, updated: Message | PartialMessage): void => track(messageEdited(deps, updated));
}
