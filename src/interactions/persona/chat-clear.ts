import { actorOf, personaCommand } from './context.ts';
import { editorChatsOn, inEditorThread, sessionOwner } from './preconditions.ts';

/** A new conversation in the same thread; whatever runs is stopped first, the persona keeps its changes. */
export const chatClear = personaCommand.subcommand({
  name: 'chat-clear',
  definition: (s) => s.setDescription('In an editor thread: start a new conversation (the persona keeps its changes)'),
  // Reads the database, which may wait behind every game's writes: acknowledge first (Discord's 3 s).
  ackFirst: true,
  preconditions: [editorChatsOn, inEditorThread, sessionOwner('Only the person who opened this editor can clear it.')],
  run: async (i, { editor, chats, session, reply }) => {
    chats.abort(session.id);
    const cleared = await editor.clear(session.id, actorOf(i));
    if (!cleared.ok) return reply.privately(cleared.error.message);
    await reply.answer({ content: 'Started a new conversation. The persona keeps every change made so far.' });
  },
});
