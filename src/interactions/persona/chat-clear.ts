import { MessageFlags, type ChatInputCommandInteraction } from 'discord.js';
import type { InteractionRouter } from '../../discord/router.ts';
import { actorOf, refuse, type PersonaDeps } from './context.ts';
import { PERSONA } from './definition.ts';
import { NO_EDITOR } from './edit.ts';

export const NOT_AN_EDITOR_THREAD = 'Use this in an editor thread (open one with `/persona edit`).';

/** A new conversation in the same thread; whatever runs is stopped first, the persona keeps its changes. */
async function chatClear(i: ChatInputCommandInteraction, deps: PersonaDeps): Promise<void> {
  if (!deps.editor || !deps.chats) return refuse(i, NO_EDITOR);
  const session = await deps.editor.sessionInThread(i.channelId);
  if (!session) return refuse(i, NOT_AN_EDITOR_THREAD);
  if (session.ownerId !== i.user.id) return refuse(i, 'Only the person who opened this editor can clear it.');
  await i.deferReply({ flags: MessageFlags.Ephemeral });
  deps.chats.abort(session.id);
  const cleared = await deps.editor.clear(session.id, actorOf(i));
  if (!cleared.ok) return refuse(i, cleared.error.message);
  await i.editReply({ content: 'Started a new conversation. The persona keeps every change made so far.' });
}

export function registerChatClear(router: InteractionRouter, deps: PersonaDeps): void {
  router.onSlash(PERSONA, 'chat-clear', (i) => chatClear(i, deps));
}
