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
}

/**
 * The replies a crash left mid-stream: each loses its Stop button (it would stop nothing) and
 * ends saying it was interrupted; each conversation they belonged to records the interruption.
 */
export async function closeInterruptedReplies(deps: RestartDeps): Promise<void> {
  const open = await deps.replies.openReplies();
  for (const reply of open) {
    await closeOnDiscord(deps.client, reply).catch((e: unknown) =>
      deps.log.warn(`an interrupted editor reply in ${reply.channelId} could not be closed: ${String(e)}`),
    );
    await deps.replies.closeReply(reply.id);
  }
  for (const sessionId of new Set(open.map((reply) => reply.sessionId))) await deps.editor.interrupted(sessionId);
  if (open.length > 0) deps.log.info(`closed ${open.length} editor repl${open.length === 1 ? 'y' : 'ies'} interrupted by the restart`);
}

async function closeOnDiscord(client: Client, reply: OpenReply): Promise<void> {
  const channel = await client.channels.fetch(reply.channelId);
  if (!channel?.isTextBased()) return;
  const message = await channel.messages.fetch(reply.messageId);
  const notice = `⚠️ ${INTERRUPTED_MESSAGE}`;
  // A placeholder or a place in the queue says nothing once the run is gone.
  const kept = message.content.trim() === '…' || message.content.startsWith('⏳') ? '' : message.content.trim();
  const content = kept === '' ? notice : `${cut(kept, MAX_CONTENT - notice.length - 2)}\n\n${notice}`;
  await message.edit({ content, components: [], allowedMentions: NO_MENTIONS });
}
