// The persona editor agent (issue #6): a conversation with a model that edits one persona through
// tools. The Discord layer uses it like this:
//
//   const editor = createEditorService({ personas, editor: createEditorStore(prisma), tester, llm });
//   const { session } = await editor.open(personaId, actor, { guildId, channelId, threadId });  // owner or Manage Server; starters refused
//       a thread or DM holds one session: the last opened (`displaced` is the one it took the place of)
//   editor.sessionInThread(threadId)              // route a thread message to its session
//   await editor.send(session.id, actor, text, { onEvent, signal })
//       onEvent: queued → (text_delta* text_done? tool_call* tool_result*)* → done | error
//       signal: the Stop button; done { reason: 'stopped' } and every turn so far is kept
//       a message sent during a run waits for it (a `queued` event), never dropped
//   editor.events(session.id, actor, text, { signal })   // the same events as an async iterator
//   editor.clear(session.id, actor)   → the fresh session; it waits for the running and queued messages, so abort first
//   editor.history(session.id, actor) → every turn: user | assistant_text | tool_call | tool_result, and the records the
//       model never sees: unsent (stopped while it waited) | failed (a run's failure, by reason)
//   editor.persona / editor.preview   → work without a model (send then answers `no_model`)
//
// Options: `llm` null when no model is configured (editorLlmFromConfig says why), `budget` the games'
// TokenBudget (refuses past the server's daily tokens, records calls with purpose "editor"). The tester
// takes the same budget (`createPersonaTester(llm, { budget })`): run_test calls are checked and
// recorded as "editor_test", and past the budget run_test is an error result the model relays.
// Every failure is a Result error with a sentence to show the user (a model failure by category, its
// provider's words in `detail` for the log); nothing is thrown at them.
export { createEditorService, editorLlmFromConfig, INTERRUPTED_MESSAGE, type EditorService } from './service.ts';
export { createPersonaTester } from './persona-tester.ts';
export type { EditorLlm } from './agent.ts';
export type { EditorTurn } from '../../db/editor-turns.ts';
