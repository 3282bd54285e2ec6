import type { Message } from 'discord.js';
import { NO_MENTIONS } from './presenters/format.ts';

/** A word to a message's author alone, by DM; with DMs closed, a reply they see where they wrote. */
export async function noteToAuthor(m: Message, content: string): Promise<void> {
  try {
    await m.author.send({ content, allowedMentions: NO_MENTIONS });
  } catch {
    await m.reply({ content, allowedMentions: NO_MENTIONS }).catch(() => undefined);
  }
}
