import { MessageFlags, ModalBuilder, TextInputStyle, type ChatInputCommandInteraction, type ModalSubmitInteraction } from 'discord.js';
import * as engine from '../../game/index.ts';
import { customIdArgs, type InteractionRouter } from '../../discord/router.ts';
import type { LiveTable } from '../../discord/tables.ts';
import { NO_MENTIONS } from '../../discord/presenters/format.ts';
import { MAFIA } from './definition.ts';
import { refuse, tableHere, type MafiaDeps } from './context.ts';
import { err, ok, type Result } from '../../result.ts';
import { optionName } from './rule-options.ts';

const WILL_MODAL = 'will';
const WILL_INPUT = 'text';

/** The seat of the person who may write a will in this game now, or why they may not (the engine checks the text). */
function writer(table: LiveTable, userId: string): Result<string, string> {
  const state = table.state;
  const me = state.players.find((p) => p.kind === 'human' && p.userId === userId);
  if (state.phase === 'lobby') return err('The game has not started yet: write your will once it is running.');
  if (!me) return err('You are not playing in this game, so you have no will to write.');
  if (!me.alive) return err('You are dead: your will has already been read.');
  if (!state.settings.rules.lastWills) return err(`This game is played without last wills (\`${optionName('lastWills')}\` is off).`);
  return ok(me.id);
}

async function save(i: ChatInputCommandInteraction | ModalSubmitInteraction, table: LiveTable, text: string): Promise<void> {
  const seat = writer(table, i.user.id);
  if (!seat.ok) return refuse(i, seat.error);
  const playerId = seat.value;
  const written = await table.submit((s, at) => engine.writeWill(s, { playerId, text, at }));
  if (!written.ok) return refuse(i, written.error.message);
  await i.reply({
    content: `📜 Your will is saved (${text.trim().length}/${engine.MAX_WILL_LENGTH} characters). It is read out if you die; until then only you know it. Write again to replace it.`,
    flags: MessageFlags.Ephemeral,
    allowedMentions: NO_MENTIONS,
  });
}

/** A modal to write the will in, holding the current one so it can be edited rather than retyped. */
function willModal(table: LiveTable, userId: string): ModalBuilder {
  const current = table.state.players.find((p) => p.userId === userId)?.will ?? '';
  return new ModalBuilder()
    .setCustomId(`${WILL_MODAL}:${table.state.id}`)
    .setTitle('Your last will')
    .addLabelComponents((label) =>
      label.setLabel('Read out to everyone when you die').setTextInputComponent((input) => {
        input.setCustomId(WILL_INPUT).setStyle(TextInputStyle.Paragraph).setMaxLength(engine.MAX_WILL_LENGTH).setRequired(true);
        if (current) input.setValue(current);
        return input;
      }),
    );
}

/** /mafia will [text]: writes or replaces the will; without text, a modal to write it in. */
async function willSlash(i: ChatInputCommandInteraction, deps: MafiaDeps): Promise<void> {
  const table = await tableHere(i, deps);
  if (!table) return;
  const seat = writer(table, i.user.id);
  if (!seat.ok) return refuse(i, seat.error);
  const text = i.options.getString('text');
  if (text !== null) return save(i, table, text);
  await i.showModal(willModal(table, i.user.id));
}

async function willSubmit(i: ModalSubmitInteraction, deps: MafiaDeps): Promise<void> {
  const table = i.channelId ? await deps.tables.inChannel(i.channelId) : null;
  // The game may have ended (or another begun) while the modal was open: the text is shown back, not lost.
  const text = i.fields.getTextInputValue(WILL_INPUT);
  if (!table || table.state.id !== customIdArgs(i.customId)[0]) {
    return refuse(i, `That game is over, so the will was not saved. Your text:\n>>> ${text.slice(0, 1800)}`);
  }
  await save(i, table, text);
}

export function registerWill(router: InteractionRouter, deps: MafiaDeps): void {
  router.onSlash(MAFIA, 'will', (i) => willSlash(i, deps));
  router.onModal(WILL_MODAL, (i) => willSubmit(i, deps));
}
