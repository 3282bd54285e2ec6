import type { InteractionRouter } from '../../discord/router.ts';
import type { PersonaDeps } from './context.ts';
import { registerChatClear } from './chat-clear.ts';
import { registerChatHistory } from './chat-history.ts';
import { registerCreate } from './create.ts';
import { registerEdit } from './edit.ts';
import { EDITOR_STOP_PREFIX } from '../../discord/editor-chats.ts';
import { personaCommand } from './definition.ts';
import { registerDelete } from './delete.ts';
import { registerDuplicate } from './duplicate.ts';
import { registerExport } from './export.ts';
import { registerImport } from './import.ts';
import { registerList } from './list.ts';
import { registerShow } from './show.ts';
import { registerTest } from './test.ts';

export type { PersonaDeps } from './context.ts';
export { personaModels } from './models.ts';
export const personaCommandData = personaCommand.toJSON();

/** Every /persona subcommand, its autocomplete, modals and buttons.  */
export function registerPersona(router: InteractionRouter, deps: PersonaDeps): void {
  registerCreate(router, deps);
  registerShow(router, deps);
  registerList(router, deps);
  registerDuplicate(router, deps);
  registerDelete(router, deps);
  registerImport(router, deps);
  registerExport(router, deps);
  registerTest(router, deps);
  registerEdit(router, deps);
  registerChatClear(router, deps);
  registerChatHistory(router, deps);
  const chats = deps.chats;
  if (chats) {
    router.onMessage((m) => chats.onMessage(m));
    router.onButton(EDITOR_STOP_PREFIX, (i) => chats.onStop(i));
  }
}
