import { ModalBuilder, TextInputStyle, type ChatInputCommandInteraction, type ModalSubmitInteraction } from 'discord.js';
import * as engine from '../../game/index.ts';
import { customIdArgs } from '../../discord/router.ts';
import type { LiveGame } from '../../discord/live-game.ts';
import type { Reply } from '../../discord/responder.ts';
import { NO_MENTIONS } from '../../discord/presenters/format.ts';
import { err, ok } from '../../result.ts';
import type { Acknowledge } from '../handlers.ts';
import type { Precondition } from '../precondition.ts';
import { mafiaCommand, type MafiaDeps } from './context.ts';
import { changeGame } from './game-change.ts';
import { gameHere } from './preconditions.ts';
import { optionName } from './rule-options.ts';

const WILL_MODAL = 'will';
const WILL_INPUT = 'text';

/** The seat of the person who may write a will in this game now (the engine checks the text). */
const willWriter: Precondition<ChatInputCommandInteraction | ModalSubmitInteraction, { game: LiveGame }, { playerId: string }> = (
  i,
  { game },
) => {
  const state = game.state;
  const me = state.players.find((p) => p.kind === 'human' && p.userId === i.user.id);
  if (state.phase === 'lobby') return Promise.resolve(err('The game has not started yet: write your will once it is running.'));
  if (!me) return Promise.resolve(err('You are not playing in this game, so you have no will to write.'));
  if (!me.alive) return Promise.resolve(err('You are dead: your will has already been read.'));
  if (!state.settings.rules.lastWills) {
    return Promise.resolve(err(`This game is played without last wills (\`${optionName('lastWills')}\` is off).`));
  }
  return Promise.resolve(ok({ playerId: me.id }));
};

/**
 * The game the will form was opened in, still this channel's: it may have ended (or another begun)
 * while the form was open. The text is shown back, not lost.
 */
const formGame: Precondition<ModalSubmitInteraction, { deps: MafiaDeps; ack: Acknowledge }, { game: LiveGame }> = async (
  i,
  { deps, ack },
) => {
  const channelId = i.channelId;
  const game = channelId
    ? (deps.liveGames.liveInChannel(channelId) ?? (await ack().then(() => deps.liveGames.inChannel(channelId))))
    : null;
  if (game && game.state.id === customIdArgs(i.customId)[0]) return ok({ game });
  const text = i.fields.getTextInputValue(WILL_INPUT);
  return err(`That game is over, so the will was not saved. Your text:\n>>> ${text.slice(0, 1800)}`);
};

function save(
  found: { readonly game: LiveGame; readonly ack: Acknowledge; readonly reply: Reply },
  playerId: string,
  text: string,
): Promise<void> {
  return changeGame(
    found,
    (s, at) => engine.writeWill(s, { playerId, text, at }),
    () =>
      found.reply.answer({
        content: `📜 Your will is saved (${text.trim().length}/${engine.MAX_WILL_LENGTH} characters). It is read out if you die; until then only you know it. Write again to replace it.`,
        allowedMentions: NO_MENTIONS,
      }),
  );
}

/** A modal to write the will in, holding the current one so it can be edited rather than retyped. */
function willModal(game: LiveGame, userId: string): ModalBuilder {
  const current = game.state.players.find((p) => p.userId === userId)?.will ?? '';
  return new ModalBuilder()
    .setCustomId(`${WILL_MODAL}:${game.state.id}`)
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
export const will = mafiaCommand.subcommand({
  name: 'will',
  definition: (s) =>
    s
      .setDescription('Write or replace your last will, read out when you die (a form opens without text)')
      .addStringOption((o) => o.setName('text').setDescription('Your will').setMaxLength(engine.MAX_WILL_LENGTH)),
  // Without text the first answer is the form, which cannot follow an acknowledgement: nothing acknowledges
  // before it, unless the game had to be loaded first (then the person is asked to try again).
  preconditions: [gameHere, willWriter],
  run: async (i, found) => {
    const text = i.options.getString('text');
    if (text !== null) return save(found, found.playerId, text);
    if (!(await found.reply.modal(willModal(found.game, i.user.id))))
      await found.reply.privately('The game was still loading: use `/mafia will` again to open the form, or give your will as `text:`.');
  },
});

/** The will form, sent. */
export const willSubmit = mafiaCommand.modal({
  id: WILL_MODAL,
  preconditions: [formGame, willWriter],
  run: (i, found) => save(found, found.playerId, i.fields.getTextInputValue(WILL_INPUT)),
});
