import { AttachmentBuilder } from 'discord.js';
import type { EditorTurn } from '../../agents/editor/index.ts';
import { cut, MAX_CONTENT, NO_MENTIONS } from '../../discord/presenters/format.ts';
import { actorOf, personaCommand } from './context.ts';
import { editorOn, inEditorThread } from './preconditions.ts';

function line(turn: EditorTurn): string {
  switch (turn.kind) {
    case 'user':
      return `**You:** ${turn.text}`;
    case 'assistant_text':
      return `**Editor:** ${turn.text}`;
    case 'tool_call':
      return `🔧 ${turn.toolName} ${cut(JSON.stringify(turn.input), 200)}`;
    case 'tool_result':
      return `${turn.isError ? '✗' : '✓'} ${turn.toolName}: ${cut(turn.text.replace(/\s+/g, ' '), 200)}`;
    case 'unsent':
      return `**You:** ${turn.text} *(stopped before it was sent)*`;
    case 'failed':
      return `⚠️ ${turn.text}`;
  }
}

/** The turns of this thread's conversation: inline when short, as a Markdown file when not. */
export const chatHistory = personaCommand.subcommand({
  name: 'chat-history',
  definition: (s) => s.setDescription('In an editor thread: every turn of this conversation'),
  // Reads the database, which may wait behind every game's writes: acknowledge first (Discord's 3 s).
  ackFirst: true,
  preconditions: [editorOn, inEditorThread],
  run: async (i, { editor, session, reply }) => {
    const turns = await editor.history(session.id, actorOf(i));
    if (!turns.ok) return reply.privately(turns.error.message);
    if (turns.value.length === 0) {
      await reply.answer({ content: 'Nothing said yet in this conversation.' });
      return;
    }
    const text = turns.value.map(line).join('\n');
    if (text.length <= MAX_CONTENT) {
      await reply.answer({ content: text, allowedMentions: NO_MENTIONS });
      return;
    }
    const file = new AttachmentBuilder(Buffer.from(`# Editor conversation\n\n${text}\n`, 'utf8'), { name: 'editor-history.md' });
    await reply.answer({
      content: `${turns.value.length} turns; the whole conversation is in the file.`,
      files: [file],
    });
  },
});
