import type { GameEvent, GameState } from '../../game/index.ts';
import type { Pacer } from '../pacer.ts';
import { closedVoteMessage, voteMessage } from '../presenters/vote.ts';
import { POST, type OutputGame, type Sends } from './sends.ts';

/** What the vote message needs to go out: the channel's messages and the bot's embeds. */
const VOTE_NEEDS = [...POST, 'EmbedLinks'] as const;

/**
 * The vote message: posted when the vote opens (with its opening line), its tally edited at most
 * every couple of seconds (votes meanwhile go into the next edit), frozen with the final tally,
 * at once, when it closes.
 */
export class VoteMessage {
  constructor(
    private readonly sends: Sends,
    /** Edits of kept-current messages, per game (`vote:<game>` here). */
    private readonly edits: Pacer,
  ) {}

  /** The vote message brought up to date with these events, as one send on its own. */
  async update(game: OutputGame, events: readonly GameEvent[], state: GameState, intro?: string): Promise<void> {
    await this.sends.deliver(game, { what: 'the vote message', needs: VOTE_NEEDS }, () => this.sync(game, events, state, intro));
  }

  /** The game is over: its pending tally edit is dropped. */
  forget(gameId: string): void {
    this.edits.forget(`vote:${gameId}`);
  }

  private async sync(game: OutputGame, events: readonly GameEvent[], state: GameState, intro?: string): Promise<void> {
    const channel = await this.sends.textChannel(game.channelId);
    if (!channel) return;
    const key = `vote:${state.id}`;
    const opened = events.some((e) => e.type === 'phase_started' && e.payload.phase === 'vote');
    if (state.phase === 'vote') {
      if (opened || !game.voteMessageId) {
        game.voteMessageId = (await channel.send({ ...voteMessage(state), ...(intro !== undefined && { content: intro }) })).id;
        this.edits.ran(key);
      } else if (this.edits.now(key)) {
        await channel.messages.edit(game.voteMessageId, voteMessage(state));
      } else {
        this.edits.later(key, () => this.sends.enqueue(game.channelId, () => this.laterTally(game, state)));
      }
      return;
    }
    if (!game.voteMessageId) return;
    this.edits.forget(key);
    // The opening line ("open until …") no longer holds.
    await channel.messages.edit(game.voteMessageId, { ...closedVoteMessage(state), content: '' });
    game.voteMessageId = null;
  }

  /** A tally edit held back by the pace: the latest tally, unless that vote is over by now. */
  private async laterTally(game: OutputGame, state: GameState): Promise<void> {
    const messageId = game.voteMessageId;
    if (!messageId || game.state.phase !== 'vote' || game.state.day !== state.day) return;
    await this.sends.deliver(game, { what: 'the vote message', needs: VOTE_NEEDS }, async () => {
      await (await this.sends.textChannel(game.channelId))?.messages.edit(messageId, voteMessage(state));
    });
  }
}
