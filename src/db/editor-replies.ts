import type { PrismaClient } from './generated/client.ts';

/** A streamed editor reply not yet finished, and the Discord message that carries its Stop button. */
export interface OpenReply {
  readonly id: string;
  readonly sessionId: string;
  readonly channelId: string;
  readonly messageId: string;
}

/**
 * The editor replies being written, so a start-up after a crash can close the ones left open
 * (their Stop button would stop nothing, their text ends mid-sentence).
 */
export interface EditorReplies {
  /** A reply's first message is on Discord; returns the reply's id. */
  openReply(sessionId: string, channelId: string, messageId: string): Promise<string>;
  /** The reply went on in a further message, which now carries the Stop button. */
  moveReply(id: string, messageId: string): Promise<void>;
  /** The reply is finished (or was closed at start-up). */
  closeReply(id: string): Promise<void>;
  /** Every reply not yet closed, oldest first. */
  openReplies(): Promise<OpenReply[]>;
}

export function createEditorReplies(prisma: PrismaClient): EditorReplies {
  const select = { id: true, sessionId: true, channelId: true, messageId: true } as const;
  return {
    async openReply(sessionId, channelId, messageId) {
      const row = await prisma.editorReply.create({ data: { sessionId, channelId, messageId }, select: { id: true } });
      return row.id;
    },
    async moveReply(id, messageId) {
      await prisma.editorReply.updateMany({ where: { id }, data: { messageId } });
    },
    async closeReply(id) {
      await prisma.editorReply.deleteMany({ where: { id } });
    },
    openReplies: () => prisma.editorReply.findMany({ select, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
  };
}
