import type { Client } from 'discord.js';
import { INTERRUPTED_MESSAGE, type EditorService } from '../agents/editor/index.ts';
import type { EditorReplies, OpenReply } from '../db/editor-replies.ts';
import type { Logger } from '../log.ts';
import { cut, MAX_CONTENT, NO_MENTIONS } from './presenters/format.ts';
import type { StreamTarget } from './streamed-reply.ts';

/**
 * A reply's target that notes in the store which message carries the reply's Stop button, so
 * a start-up after a crash can close it. The bookkeeping never fails the reply: a write that
 * fails is reported and the reply goes on.
 */
export function trackReply(
  target: StreamTarget,
  where: { readonly replies: EditorReplies; readonly sessionId: string; readonly channelId: string },
  onError: (error: unknown) => void,
): { readonly target: StreamTarget; close(): Promise<void> } {
  let id: string | null = null;
  return {
    target: {
      async send(body) {
        const messageId = await target.send(body);
        try {
          if (id === null) id = await where.replies.openReply(where.sessionId, where.channelId, messageId);
          else await where.replies.moveReply(id, messageId);
        } catch (error) {
          onError(error);
        }
        return messageId;
      },
      edit: (messageId, body) => target.edit(messageId, body),
    },
    async close() {
      if (id !== null) await where.replies.closeReply(id).catch(onError);
    },
  };
}

interface RestartDeps {
  readonly client: Client;
  readonly replies: EditorReplies;
  readonly editor: Pick<EditorService, 'interrupted'>;
  readonly log: Logger;
  /**
   * Sharding: whether this process serves the place (guild, or null for DMs). Another shard's
   * process may be writing the replies there right now, so they are not this start-up's to close.
   */
  readonly ownsPlace?: (guildId: string | null) => boolean;
}

/**
 * The replies a crash left mid-stream: each loses its Stop button (it would stop nothing) and
 * ends saying it was interrupted; each conversation they belonged to records the interruption.
 */
export async function closeInterruptedReplies(deps: RestartDeps): Promise<void> {
  const open: OpenReply[] = [];
  for (const reply of await deps.replies.openReplies()) {
    const closed = await closeOnDiscord(deps, reply).catch((e: unknown) => {
      deps.log.warn(`an interrupted editor reply in ${reply.channelId} could not be closed: ${String(e)}`);
      return true;
    });
    if (!closed) continue;
    open.push(reply);
    await deps.replies.closeReply(reply.id);
  }
  for (const sessionId of new Set(open.map((reply) => reply.sessionId))) await deps.editor.interrupted(sessionId);
  if (open.length > 0) deps.log.info(`closed ${open.length} editor repl${open.length === 1 ? 'y' : 'ies'} interrupted by the restart`);
}

/** False when the reply is another process's to close. */
async function closeOnDiscord(deps: RestartDeps, reply: OpenReply): Promise<boolean> {
  const channel = await deps.client.channels.fetch(reply.channelId);
  if (channel && deps.ownsPlace && !deps.ownsPlace('guildId' in channel ? channel.guildId : null)) return false;
  if (!channel?.isTextBased()) return true;
  const message = await channel.messages.fetch(reply.messageId);
  const notice = `⚠️ ${INTERRUPTED_MESSAGE}`;
  // A placeholder or a place in the queue says nothing once the run is gone.
  const kept = message.content.trim() === '…' || message.content.startsWith('⏳') ? '' : message.content.trim();
  const content = kept === '' ? notice : `${cut(kept, MAX_CONTENT - notice.length - 2)}\n\n${notice}`;
  await message.edit({ content, components: [], allowedMentions: NO_MENTIONS });
  return true;
}
