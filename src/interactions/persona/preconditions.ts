import type { ChatInputCommandInteraction } from 'discord.js';
import type { EditorService } from '../../agents/editor/index.ts';
import type { EditorSession } from '../../db/editor-turns.ts';
import type { EditorChats } from '../../discord/editor-chats.ts';
import { mayEdit } from '../../persona/permissions.ts';
import type { Persona } from '../../persona/persona.ts';
import { err, ok } from '../../result.ts';
import type { Nothing, Precondition } from '../precondition.ts';
import { actorOf, type PersonaDeps } from './context.ts';
import { personaValue, serverScopeAsked } from './options.ts';

type Deps = { readonly deps: PersonaDeps };
type Slash = ChatInputCommandInteraction;

const NO_EDITOR = 'The persona editor is not available on this bot.';

/** A server scope asked for in DMs is refused, not silently made private. */
export const scopeAllowedHere: Precondition<Slash, unknown, Nothing> = (i) =>
  Promise.resolve(
    serverScopeAsked(i) && i.guildId === null ? err('Server personas are made in a server: use this command there, not in DMs.') : ok({}),
  );

/**
 * The `persona` option: autocomplete sends its id, a person may type a name. The store applies
 * visibility, so someone else's private persona is "not found", never shown.
 */
export const namedPersona: Precondition<Slash, Deps, { readonly persona: Persona }> = async (i, { deps }) => {
  const actor = actorOf(i);
  const value = personaValue(i);
  const byId = await deps.personas.get(actor, value);
  if (byId.ok) return ok({ persona: byId.value });
  const byName = await deps.personas.getByName(actor, value);
  if (byName.ok) return ok({ persona: byName.value });
  return err(
    `There is no persona "${value.slice(0, 100)}" that you can use here. Pick one from the list as you type, or see \`/persona list\`.`,
  );
};

/** The person may change that persona: it is theirs, or their server's and they have Manage Server. */
export const editablePersona: Precondition<Slash, { readonly persona: Persona }, Nothing> = (i, { persona }) => {
  const allowed = mayEdit(actorOf(i), persona);
  return Promise.resolve(allowed.ok ? ok({}) : err(allowed.error.message));
};

/** The bot runs the persona editor. */
export const editorOn: Precondition<Slash, Deps, { readonly editor: EditorService }> = (_i, { deps }) =>
  Promise.resolve(deps.editor ? ok({ editor: deps.editor }) : err(NO_EDITOR));

/** The bot runs the persona editor and its Discord conversations. */
export const editorChatsOn: Precondition<Slash, Deps, { readonly editor: EditorService; readonly chats: EditorChats }> = (_i, { deps }) =>
  Promise.resolve(deps.editor && deps.chats ? ok({ editor: deps.editor, chats: deps.chats }) : err(NO_EDITOR));

/** Used in an editor thread (or the DM the editor was opened in): its session. */
export const inEditorThread: Precondition<Slash, { readonly editor: EditorService }, { readonly session: EditorSession }> = async (
  i,
  { editor },
) => {
  const session = await editor.sessionInThread(i.channelId);
  return session ? ok({ session }) : err('Use this in an editor thread (open one with `/persona edit`).');
};

/** The person who opened the editor; `message` says what only they may do. */
export function sessionOwner(message: string): Precondition<Slash, { readonly session: EditorSession }, Nothing> {
  return (i, { session }) => Promise.resolve(session.ownerId === i.user.id ? ok({}) : err(message));
}
