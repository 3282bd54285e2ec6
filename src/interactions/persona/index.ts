import { ApplicationIntegrationType, InteractionContextType, SlashCommandBuilder } from 'discord.js';
import { EDITOR_STOP_PREFIX } from '../../discord/editor-chats.ts';
import type { InteractionRouter } from '../../discord/router.ts';
import type { AckStyle } from '../../discord/responder.ts';
import { commandData, routeCommand } from '../command.ts';
import { chatClear } from './chat-clear.ts';
import { chatHistory } from './chat-history.ts';
import type { PersonaDeps } from './context.ts';
import { create, createSubmit } from './create.ts';
import { deleteButton, deletePersona } from './delete.ts';
import { duplicate } from './duplicate.ts';
import { edit } from './edit.ts';
import { exportPersona } from './export.ts';
import { importPersona } from './import.ts';
import { list } from './list.ts';
import { show } from './show.ts';
import { testPersona, testSubmit } from './test.ts';

export type { PersonaDeps } from './context.ts';
export { personaModels } from './models.ts';

const PERSONA = 'persona';

/** In the order Discord lists them. */
const SUBCOMMANDS = [create, show, list, duplicate, deletePersona, importPersona, exportPersona, testPersona, edit, chatClear, chatHistory];

/** /persona. Usable in DMs: private personas live there too. */
export const personaCommandData = commandData(
  new SlashCommandBuilder()
    .setName(PERSONA)
    .setDescription('Create, share and try out the AI personas that play Mafia')
    .setContexts(InteractionContextType.Guild, InteractionContextType.BotDM)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall),
  SUBCOMMANDS,
);

/** The editor's Stop button is answered privately. */
const STOP_ACK: AckStyle = 'ephemeral';

/** Every /persona subcommand, its autocomplete, modals and buttons; and the editor threads' messages. */
export function registerPersona(router: InteractionRouter, deps: PersonaDeps): void {
  routeCommand(router, PERSONA, deps, { subcommands: SUBCOMMANDS, buttons: [deleteButton], modals: [createSubmit, testSubmit] });
  const chats = deps.chats;
  if (chats) {
    router.onMessage((m) => chats.onMessage(m));
    router.onButton(EDITOR_STOP_PREFIX, (i, responder) => chats.onStop(i, responder.as(STOP_ACK)), STOP_ACK);
  }
}
