import type { ButtonInteraction, ChatInputCommandInteraction } from 'discord.js';
import * as engine from '../../game/index.ts';
import { customIdArgs, type InteractionRouter } from '../../discord/router.ts';
import type { LiveTable } from '../../discord/tables.ts';
import { NO_MENTIONS } from '../../discord/presenters/format.ts';
import { MAFIA } from './definition.ts';
import { HOST_ONLY, isHost, refuse, tableHere, tableOf, type MafiaDeps } from './context.ts';

/** Deals the roles; null when it did, else why not (the state is then unchanged). */
async function begin(table: LiveTable, userId: string): Promise<string | null> {
  if (!isHost(table, userId)) return HOST_ONLY;
  const started = await table.submit((s, at) => engine.start(s, { at }));
  return started.ok ? null : `The game cannot start yet: ${started.error.message}`;
}

async function startSlash(i: ChatInputCommandInteraction, deps: MafiaDeps): Promise<void> {
  const table = await tableHere(i, deps);
  if (!table) return;
  const refused = await begin(table, i.user.id);
  if (refused) return refuse(i, refused);
  await i.reply({ content: 'The game has started: everyone has their role by DM.', allowedMentions: NO_MENTIONS });
  // After the reply: the AI seats get their brains (persona rendering may take a moment).
  deps.tables.seatAiLater(table);
}

/** The lobby's Start button. */
export async function startButton(i: ButtonInteraction, deps: MafiaDeps): Promise<void> {
  const table = await tableOf(i, customIdArgs(i.customId)[1], deps);
  if (!table) return;
  table.lobbyMessageId ??= i.message.id;
  const refused = await begin(table, i.user.id);
  if (refused) return refuse(i, refused);
  await i.deferUpdate();
  // After the reply: the AI seats get their brains (persona rendering may take a moment).
  deps.tables.seatAiLater(table);
}

export function registerStart(router: InteractionRouter, deps: MafiaDeps): void {
  router.onSlash(MAFIA, 'start', (i) => startSlash(i, deps));
}
