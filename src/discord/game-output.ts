import type { Client } from 'discord.js';
import type { Timers } from '../clock.ts';
import type { GameEvent, GameState } from '../game/index.ts';
import type { Logger } from '../log.ts';
import { Pacer } from './pacer.ts';
import { announcements } from './presenters/announce.ts';
import { NO_MENTIONS } from './presenters/format.ts';
import { reminderDue, reminderMessage } from './presenters/reminder.ts';
import { touchesNominations, updateNominations } from './nomination-message.ts';
import { dmHostOfGoneModels } from './host-dms.ts';
import { FinishedGameCache } from './finished-game-cache.ts';
import { Graveyard } from './graveyard.ts';
import { POST, Sends, type ChannelLoss, type OutputGame } from './output/sends.ts';
import { MafiaChat } from './output/mafia-chat.ts';
import { Speech } from './output/speech.ts';
import { VoteMessage } from './output/vote-message.ts';
import { LobbyMessage } from './output/lobby-message.ts';
import { Mutes } from './output/mutes.ts';
import { investigationResults, nightMenus, nightReminders, roleCards } from './output/player-dms.ts';
import { directorsCut, tellPlayersCancelled } from './output/game-end.ts';

/** The vote tally and the lobby are edited at most this often; what changes meanwhile goes into the next edit. */
const LIVE_EDIT_INTERVAL_MS = 2000;
/** At most one typing indicator per channel this often (Discord shows one for up to 10 s). */
const TYPING_INTERVAL_MS = 8000;

const VOTE_EVENTS = new Set<GameEvent['type']>(['vote_cast', 'vote_withdrawn', 'phase_started']);
const LOBBY_EVENTS = new Set<GameEvent['type']>(['player_joined', 'player_left', 'player_renamed', 'game_started', 'game_ended']);

/**
 * Turns what a session published into Discord messages, in order per game (a later batch never
 * overtakes an earlier one). Every message is sent on its own: one that fails never drops the
 * others. discord.js already waits out 429s and retries 5xx and network faults; what still fails
 * is told to the host once per game and problem (the missing permission, closed DMs), and a game
 * whose channel is gone is handed to `onChannelGone` instead of being posted to forever.
 * Each concern has its own file in `output/`; this is the order they go in.
 */
export class GameOutput {
  private readonly sends: Sends;
  private readonly mafia: MafiaChat;
  private readonly speech: Speech;
  /** Edits of the vote message and the lobby, per game (`vote:<game>`, `lobby:<game>`; forgotten at the end). */
  private readonly edits: Pacer;
  private readonly vote: VoteMessage;
  private readonly lobby: LobbyMessage;
  private readonly mutes: Mutes;
  /** Typing indicators, per channel (forgotten at the game's end). */
  private readonly typing: Pacer;
  /** What discord.js cached for finished games, dropped at their end. */
  private readonly finished: FinishedGameCache;
  /** Each game's graveyard thread: the dead and spectators, and the AI seats' reasoning, phase by phase. */
  readonly graveyard: Graveyard<OutputGame>;

  constructor(
    private readonly client: Client,
    private readonly log: Logger,
    timers: Timers,
    onChannelGone: (channelId: string, loss: ChannelLoss) => void = () => undefined,
  ) {
    this.sends = new Sends(client, log, (channelId, loss) => {
      this.speech.forget(channelId);
      onChannelGone(channelId, loss);
    });
    this.mafia = new MafiaChat(this.sends);
    this.speech = new Speech(this.sends, this.mafia);
    this.edits = new Pacer(timers, LIVE_EDIT_INTERVAL_MS);
    this.vote = new VoteMessage(this.sends, this.edits);
    this.lobby = new LobbyMessage(this.sends, this.edits);
    this.mutes = new Mutes(this.sends);
    this.finished = new FinishedGameCache(client);
    this.typing = new Pacer(timers, TYPING_INTERVAL_MS);
    this.graveyard = new Graveyard(client, log, timers, (game, key, text) => this.sends.tell(game, key, text));
  }

  published(game: OutputGame, events: readonly GameEvent[], state: GameState): void {
    this.sends.enqueue(game.channelId, async () => {
      if (game.lobbyMessageId && events.some((e) => LOBBY_EVENTS.has(e.type))) await this.lobby.update(game, events, state);
      if (events.some((e) => e.type === 'game_started')) await roleCards(this.sends, game, events, state);
      if (events.some((e) => e.type === 'mafia_team')) await this.mafia.open(game, state);
      // A seat's words come first in its command, before what they led to (a proposal that ends the
      // night, its death): they go out first too, or the thread would talk of a kill already told.
      await this.speech.speeches(game, events, state);
      const said = announcements(state, events, {
        mafiaByDm: this.mafia.chatsByDm(state.id),
        voteMessageShown: game.voteMessageId !== null,
      });
      // The vote's opening line is the vote message's own text: one message for the moment.
      const opensVote = state.phase === 'vote' && events.some((e) => e.type === 'phase_started' && e.payload.phase === 'vote');
      const intro = opensVote && said.length === 1 && said[0]?.embeds === undefined ? said.shift()?.content : undefined;
      for (const message of said) {
        await this.sends.deliver(game, { what: 'an announcement', needs: POST }, () => this.sends.post(game, message));
      }
      await dmHostOfGoneModels(this.client, this.log, game, events);
      await this.mafia.follow(state.id, events, state);
      if (touchesNominations(events, state))
        await this.sends.deliver(game, { what: 'the nominations message', needs: [...POST, 'EmbedLinks'] }, async () =>
          updateNominations(await this.sends.textChannel(game.channelId), game, events, state),
        );
      if (events.some((e) => VOTE_EVENTS.has(e.type))) await this.vote.update(game, events, state, intro);
      await nightMenus(this.sends, game, events, state);
      await investigationResults(this.sends, game, events, state);
      if (events.some((e) => e.type === 'player_died' || e.type === 'phase_started')) await this.mutes.dead(game, state);
      await this.graveyard.published(game, events, state);
      if (events.some((e) => e.type === 'game_ended')) await this.ended(game, state);
    });
  }

  /** The game is over: the dead may speak, the director's cut (or, for a lost channel, a DM to each) goes out, and the game is forgotten. */
  private async ended(game: OutputGame, state: GameState): Promise<void> {
    await this.mutes.unmuteAll(game);
    let cutThreadId: string | null = null;
    const loss = this.sends.lossOf(game.channelId);
    if (loss) await tellPlayersCancelled(this.sends, state, loss);
    // A lobby called off (by its host, or idle) was never played: it has no cut.
    else if (state.log.some((e) => e.type === 'game_started')) {
      const cut = await this.sends.deliver(
        game,
        { what: "the director's cut", needs: [...POST, 'AttachFiles', 'CreatePublicThreads'] },
        () => directorsCut(this.sends, game, state),
      );
      if (cut.ok) cutThreadId = cut.value;
    }
    this.finished.forget({
      channelId: game.channelId,
      threadIds: [game.mafiaThreadId, cutThreadId, this.graveyard.ended(state.id)],
      userIds: state.players.flatMap((p) => (p.kind === 'human' && p.userId ? [p.userId] : [])),
    });
    this.sends.forget(state.id);
    this.mafia.forget(state.id);
    this.vote.forget(state.id);
    this.lobby.forget(state.id);
    this.typing.forget(game.channelId);
  }

  /** A dead person who spoke in the channel: muted there where the bot may (queued with the game's other output). */
  mute(game: OutputGame, userId: string): void {
    this.sends.enqueue(game.channelId, () => this.mutes.one(game.channelId, userId));
  }

  /** Shortly before a deadline: a reminder in the channel, and at night a DM to each person who has not acted. */
  remind(game: OutputGame, state: GameState, msLeft: number): void {
    if (!reminderDue(state, msLeft)) return;
    this.sends.enqueue(game.channelId, async () => {
      // The phase ended before its reminder's turn came (everyone voted, the clock jumped): nothing to remind of.
      if (game.state.phase !== state.phase || game.state.day !== state.day) return;
      const message = reminderMessage(state);
      if (message) await this.sends.deliver(game, { what: 'the deadline reminder', needs: POST }, () => this.sends.post(game, message));
      if (state.phase !== 'night') return;
      await nightReminders(this.sends, game, state);
    });
  }

  /** After a restart: the graveyard and the Mafia thread of a running game, found again. */
  async recover(game: OutputGame): Promise<void> {
    await this.graveyard.recover(game);
    await this.mafia.recover(game);
  }

  /** A typing indicator in the channel when an AI seat starts composing by day; at most one per channel every 8 s. */
  thinking(game: OutputGame, _playerId: string, busy: boolean): void {
    if (!busy || game.state.phase !== 'day' || !this.typing.now(game.channelId)) return;
    void this.sends
      .channel(game.channelId)
      .then((channel) => channel?.sendTyping())
      .catch(() => undefined);
  }

  async idle(): Promise<void> {
    await this.sends.idle();
    await this.graveyard.idle();
  }

  /** How many entries each of its tables holds: what a long run watches stay flat. */
  held(): Record<string, number> {
    const { outputQueues, goneChannels, toldHosts } = this.sends.held();
    return {
      outputQueues,
      ...this.speech.held(),
      mafiaByDm: this.mafia.size,
      goneChannels,
      toldHosts,
      mutedChannels: this.mutes.size,
      pacedEdits: this.edits.size,
      pacedTyping: this.typing.size,
      lobbyClicks: this.lobby.size,
      finishedThreads: this.finished.size,
      ...this.graveyard.held(),
    };
  }

  /** The game channel was deleted (seen as an event or as Unknown Channel) or the bot removed from its server: stop posting there. */
  channelGone(channelId: string, loss?: ChannelLoss): void {
    this.sends.channelGone(channelId, loss);
  }

  /** The host left the server and someone else holds the game now: the channel hears it, and the lobby shows it. */
  hostChanged(game: OutputGame, name: string): void {
    this.sends.enqueue(game.channelId, async () => {
      await this.sends.deliver(game, { what: 'the new host', needs: POST }, () =>
        this.sends.post(game, { content: `👑 The host left the server: **${name}** is the host now.`, allowedMentions: NO_MENTIONS }),
      );
      if (game.lobbyMessageId && game.state.phase === 'lobby') await this.lobby.redraw(game);
    });
  }

  /** Whether this game's Mafia chat goes by DM (no private thread). */
  mafiaChatsByDm(gameId: string): boolean {
    return this.mafia.chatsByDm(gameId);
  }

  /** The Mafia thread was deleted mid-game: the Mafia's chat goes by DM from now on. */
  mafiaThreadGone(game: OutputGame): void {
    game.mafiaThreadId = null;
    this.sends.enqueue(game.channelId, () => this.mafia.toDms(game, 'the Mafia thread was deleted'));
  }

  /** A lobby button's click will answer with the lobby message itself (one call for the answer and the edit): until it is done, the output leaves the lobby to it. */
  lobbyClickPending(gameId: string): void {
    this.lobby.clickPending(gameId);
  }

  /** The click has drawn the lobby (or given up): the output edits the lobby again once no click is pending. */
  lobbyClickDone(gameId: string): void {
    this.lobby.clickDone(gameId);
  }
}
