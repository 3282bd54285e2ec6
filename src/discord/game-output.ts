import {
  ChannelType,
  DiscordAPIError,
  EmbedBuilder,
  escapeMarkdown,
  LimitedCollection,
  PermissionFlagsBits,
  ThreadAutoArchiveDuration,
  type BaseMessageOptions,
  type Client,
  type Message,
  type MessageCreateOptions,
  type PermissionsString,
  type SendableChannels,
  type TextChannel,
  type Webhook,
  type WebhookMessageCreateOptions,
} from 'discord.js';
import type { Timers } from '../clock.ts';
import { err, ok, type Result } from '../result.ts';
import { Pacer } from './pacer.ts';
import { missingPermissions, permissionName, sendProblem, ToldOnce, type SendProblem } from './delivery.ts';
import { findPlayer, isMafia, spokenText, viewFor, type GameEvent, type GameEventOf, type GameState } from '../game/index.ts';
import type { Logger } from '../log.ts';
import { lobbyMessage } from './lobby-view.ts';
import { announcements } from './presenters/announce.ts';
import { COLOURS, NO_MENTIONS } from './presenters/format.ts';
import { roleCardMessage } from './presenters/role-card.ts';
import { nightActionMessage } from './presenters/night-action.ts';
import { investigationResultDms } from './presenters/investigation.ts';
import { closedVoteMessage, saidWithVote, voteMessage } from './presenters/vote.ts';
import { touchesNominations, updateNominations } from './nomination-message.ts';
import { personaSpeech, personaSpeechAsBot } from './presenters/persona-speech.ts';
import { nightReminderDm, owingNightAction, reminderDue, reminderMessage } from './presenters/reminder.ts';
import { chunkMarkdown } from '../chunk-markdown.ts';
import { dmHostOfGoneModels } from './host-dms.ts';
import { MafiaDmCopies } from './mafia-dm-copies.ts';
import { FinishedGameCache } from './finished-game-cache.ts';
import { gameReport } from '../report/files.ts';
import { MAX_CONTENT } from './presenters/format.ts';
import { Graveyard } from './graveyard.ts';

/** Discord takes at most ten files on one message. */
const MAX_FILES = 10;
/** Pieces of the director's cut shown in its thread (the file holds all of it), and per message. */
const MAX_CUT_CHUNKS = 20;
const CUT_CHUNKS_PER_MESSAGE = 3;

/** What the output needs of a table (kept structural so live-games.ts and this file do not import each other). */
export interface OutputGame {
  readonly channelId: string;
  readonly hostId: string;
  readonly state: GameState;
  lobbyMessageId: string | null;
  voteMessageId: string | null;
  /** A trial day's nominations message (src/discord/nomination-message.ts). */
  nominationMessageId: string | null;
  mafiaThreadId: string | null;
  readonly avatars: ReadonlyMap<string, string>;
}

/** Why a game channel can no longer be posted to: deleted, or the bot removed from its server. */
export type ChannelLoss = { readonly why: 'deleted' } | { readonly why: 'removed'; readonly server: string };

const DELETED: ChannelLoss = { why: 'deleted' };

/** The loss as the cancelled game's reason, stored with it. */
export function lossReason(loss: ChannelLoss): string {
  return loss.why === 'deleted' ? 'its channel was deleted' : 'the bot was removed from the server';
}

/**
 * Channels whose facts the output keeps (its webhook, that it may not use webhooks, that it was
 * deleted): one per game channel, so a bot in many servers would keep them all. Past this many the
 * oldest is forgotten: its webhook is fetched again (one REST call), a refused webhook is tried again.
 */
const CHANNELS_KEPT = 1000;

/** The vote tally and the lobby are edited at most this often; what changes meanwhile goes into the next edit. */
const LIVE_EDIT_INTERVAL_MS = 2000;
/** At most one typing indicator per channel this often (Discord shows one for up to 10 s). */
const TYPING_INTERVAL_MS = 8000;

/** Discord's "Unknown Webhook": someone deleted the channel's webhook. */
const UNKNOWN_WEBHOOK = 10015;
const VOTE_EVENTS = new Set<GameEvent['type']>(['vote_cast', 'vote_withdrawn', 'phase_started']);

/** The name of a game's Mafia thread; the game id in it lets a restarted process find the thread again. */
function mafiaThreadName(gameId: string): string {
  return `mafia-${gameId.slice(0, 8)}`;
}

const LOBBY_EVENTS = new Set<GameEvent['type']>(['player_joined', 'player_left', 'player_renamed', 'game_started', 'game_ended']);

/** What one send is, for the log and for the host: "the vote message", with the permissions it needs. */
interface Step {
  readonly what: string;
  readonly needs?: readonly PermissionsString[];
}

const POST: readonly PermissionsString[] = ['ViewChannel', 'SendMessages'];

/**
 * Turns what a session published into Discord messages, in order per game (a later batch never
 * overtakes an earlier one). Every message is sent on its own: one that fails never drops the
 * others. discord.js already waits out 429s and retries 5xx and network faults; what still fails
 * is told to the host once per game and problem (the missing permission, closed DMs), and a game
 * whose channel is gone is handed to `onChannelGone` instead of being posted to forever.
 */
export class GameOutput {
  /** Output queued per channel; an entry goes once its queue is empty (bound: channels with output in flight). */
  private readonly chains = new Map<string, Promise<void>>();
  /** One webhook per channel, created once and cached (bound: CHANNELS_KEPT). */
  private readonly webhooks = new LimitedCollection<string, Webhook>({ maxSize: CHANNELS_KEPT });
  /**
   * Channels where Discord refused the bot webhooks, and whether discord.js's cache said the bot had
   * Manage Webhooks there when it did (bound: CHANNELS_KEPT). Where the cache said no, the bot
   * tries webhooks again once the cache says yes (a role or overwrite changed); where it said yes,
   * the cache cannot tell a grant, so the channel stays without them while the bot runs.
   */
  private readonly noWebhooks = new LimitedCollection<string, { readonly permittedThen: boolean }>({ maxSize: CHANNELS_KEPT });
  /** Games whose Mafia could not get a thread: the Mafia's chat goes by DM (bound: running games; forgotten at the end). */
  private readonly mafiaByDm = new Set<string>();
  /** The DM copies of each Mafia chat line, so they follow the line's edits and deletion. */
  private readonly mafiaDmCopies: MafiaDmCopies;
  /** Game channels that were deleted or whose server removed the bot: nothing more is posted there (bound: CHANNELS_KEPT). */
  private readonly gone = new LimitedCollection<string, ChannelLoss>({ maxSize: CHANNELS_KEPT });
  /** Problems told to each game's host (bound: running games; forgotten at the end). */
  private readonly told = new ToldOnce();
  /** Dead people this process has muted, per channel (bound: channels of running games; forgotten at the end). */
  private readonly muted = new Map<string, Set<string>>();
  /** Edits of the vote message and the lobby, per game (`vote:<game>`, `lobby:<game>`; forgotten at the end). */
  private readonly edits: Pacer;
  /** Typing indicators, per channel (forgotten at the game's end). */
  private readonly typing: Pacer;
  /** Lobby clicks being stored, per game: each answers with the lobby itself (bound: clicks in flight). */
  private readonly lobbyClicks = new Map<string, number>();
  /** What discord.js cached for finished games, dropped at their end. */
  private readonly finished: FinishedGameCache;
  /** Each game's graveyard thread: the dead and spectators, and the AI seats' reasoning live. */
  readonly graveyard: Graveyard<OutputGame>;

  constructor(
    private readonly client: Client,
    private readonly log: Logger,
    timers: Timers,
    private readonly onChannelGone: (channelId: string, loss: ChannelLoss) => void = () => undefined,
  ) {
    this.edits = new Pacer(timers, LIVE_EDIT_INTERVAL_MS);
    this.mafiaDmCopies = new MafiaDmCopies(log);
    this.finished = new FinishedGameCache(client);
    this.typing = new Pacer(timers, TYPING_INTERVAL_MS);
    this.graveyard = new Graveyard(client, log, (table, key, text) => this.tell(table, key, text));
  }

  published(table: OutputGame, events: readonly GameEvent[], state: GameState): void {
    this.enqueue(table.channelId, async () => {
      if (table.lobbyMessageId && events.some((e) => LOBBY_EVENTS.has(e.type))) await this.lobbyUpdate(table, events, state);
      if (events.some((e) => e.type === 'game_started')) await this.roleCards(table, events, state);
      if (events.some((e) => e.type === 'mafia_team')) await this.mafiaThread(table, state);
      // A seat's words come first in its command, before what they led to (a proposal that ends the
      // night, its death): they go out first too, or the thread would talk of a kill already told.
      await this.speeches(table, events, state);
      const said = announcements(state, events, {
        mafiaByDm: this.mafiaByDm.has(state.id),
        voteMessageShown: table.voteMessageId !== null,
      });
      // The vote's opening line is the vote message's own text: one message for the moment.
      const opensVote = state.phase === 'vote' && events.some((e) => e.type === 'phase_started' && e.payload.phase === 'vote');
      const intro = opensVote && said.length === 1 && said[0]?.embeds === undefined ? said.shift()?.content : undefined;
      for (const message of said) {
        await this.deliver(table, { what: 'an announcement', needs: POST }, () => this.post(table, message));
      }
      await dmHostOfGoneModels(this.client, this.log, table, events);
      await this.mafiaDmCopies.follow(state.id, events, state);
      if (touchesNominations(events, state))
        await this.deliver(table, { what: 'the nominations message', needs: [...POST, 'EmbedLinks'] }, async () =>
          updateNominations(await this.textChannel(table.channelId), table, events, state),
        );
      if (events.some((e) => VOTE_EVENTS.has(e.type))) {
        await this.deliver(table, { what: 'the vote message', needs: [...POST, 'EmbedLinks'] }, () =>
          this.voteMessage(table, events, state, intro),
        );
      }
      await this.nightActions(table, events, state);
      for (const result of investigationResultDms(events, state))
        await this.dm(table, result.to, 'their investigation result', result.message);
      if (events.some((e) => e.type === 'player_died' || e.type === 'phase_started')) await this.muteDead(table, state);
      await this.graveyard.published(table, events, state);
      if (events.some((e) => e.type === 'game_ended')) {
        await this.unmuteAll(table);
        let cutThreadId: string | null = null;
        const loss = this.gone.get(table.channelId);
        if (loss) await this.tellPlayersCancelled(state, loss);
        // A lobby called off (by its host, or idle) was never played: it has no cut.
        else if (state.log.some((e) => e.type === 'game_started')) {
          const cut = await this.deliver(
            table,
            { what: "the director's cut", needs: [...POST, 'AttachFiles', 'CreatePublicThreads'] },
            () => this.directorsCut(table, state),
          );
          if (cut.ok) cutThreadId = cut.value;
        }
        this.finished.forget({
          channelId: table.channelId,
          threadIds: [table.mafiaThreadId, cutThreadId, this.graveyard.ended(state.id)],
          userIds: state.players.flatMap((p) => (p.kind === 'human' && p.userId ? [p.userId] : [])),
        });
        this.told.forget(state.id);
        this.mafiaByDm.delete(state.id);
        this.mafiaDmCopies.forget(state.id);
        this.edits.forget(`vote:${state.id}`);
        this.edits.forget(`lobby:${state.id}`);
        this.typing.forget(table.channelId);
        this.lobbyClicks.delete(state.id);
      }
    });
  }

  /** A dead person who spoke in the channel: muted there where the bot may (queued with the game's other output). */
  mute(table: OutputGame, userId: string): void {
    this.enqueue(table.channelId, () => this.muteOne(table.channelId, userId));
  }

  /** Shortly before a deadline: a reminder in the channel, and at night a DM to each person who has not acted. */
  remind(table: OutputGame, state: GameState, msLeft: number): void {
    if (!reminderDue(state, msLeft)) return;
    this.enqueue(table.channelId, async () => {
      // The phase ended before its reminder's turn came (everyone voted, the clock jumped): nothing to remind of.
      if (table.state.phase !== state.phase || table.state.day !== state.day) return;
      const message = reminderMessage(state);
      if (message) await this.deliver(table, { what: 'the deadline reminder', needs: POST }, () => this.post(table, message));
      if (state.phase !== 'night') return;
      for (const p of owingNightAction(state)) {
        const dm = nightReminderDm(state, p.id);
        const userId = p.userId;
        if (!dm || !userId) continue;
        await this.dm(table, { userId, name: p.name }, 'their night reminder', dm);
      }
    });
  }

  /** After a restart: the Mafia thread of a running game, found again by its name. */
  async recover(table: OutputGame): Promise<void> {
    await this.graveyard.recover(table);
    if (table.mafiaThreadId || table.state.phase === 'lobby') return;
    try {
      const channel = await this.client.channels.fetch(table.channelId);
      if (channel?.type !== ChannelType.GuildText) return;
      const active = await channel.threads.fetchActive();
      const thread = active.threads.find((t) => t.parentId === channel.id && t.name === mafiaThreadName(table.state.id));
      if (thread) table.mafiaThreadId = thread.id;
      // No thread of its own: the Mafia chatted by DM before the restart (they were told then), and go on so.
      else this.mafiaByDm.add(table.state.id);
    } catch (error) {
      this.log.warn(`Mafia thread of ${table.state.id} not found again: ${String(error)}`);
    }
  }

  /** A typing indicator in the channel when an AI seat starts composing by day; at most one per channel every 8 s. */
  thinking(table: OutputGame, _playerId: string, busy: boolean): void {
    if (!busy || table.state.phase !== 'day' || !this.typing.now(table.channelId)) return;
    void this.channel(table.channelId)
      .then((channel) => channel?.sendTyping())
      .catch(() => undefined);
  }

  async idle(): Promise<void> {
    await Promise.allSettled([...this.chains.values()]);
    await this.graveyard.idle();
  }

  /** How many entries each of its tables holds: what a long run watches stay flat. */
  held(): Record<string, number> {
    return {
      outputQueues: this.chains.size,
      webhooks: this.webhooks.size,
      noWebhooks: this.noWebhooks.size,
      mafiaByDm: this.mafiaByDm.size,
      goneChannels: this.gone.size,
      toldHosts: this.told.size,
      mutedChannels: this.muted.size,
      pacedEdits: this.edits.size,
      pacedTyping: this.typing.size,
      lobbyClicks: this.lobbyClicks.size,
      finishedThreads: this.finished.size,
      ...this.graveyard.held(),
    };
  }

  private enqueue(key: string, job: () => Promise<void>): void {
    const next: Promise<void> = (this.chains.get(key) ?? Promise.resolve())
      .then(job)
      .catch((error: unknown) => this.log.warn(`posting to ${key} failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        if (this.chains.get(key) === next) this.chains.delete(key);
      });
    this.chains.set(key, next);
  }

  /** The game channel was deleted (seen as an event or as Unknown Channel) or the bot removed from its server: stop posting there. */
  channelGone(channelId: string, loss: ChannelLoss = DELETED): void {
    if (this.gone.has(channelId)) return;
    this.gone.set(channelId, loss);
    this.webhooks.delete(channelId);
    this.onChannelGone(channelId, loss);
  }

  /** The host left the server and someone else holds the game now: the channel hears it, and the lobby shows it. */
  hostChanged(table: OutputGame, name: string): void {
    this.enqueue(table.channelId, async () => {
      await this.deliver(table, { what: 'the new host', needs: POST }, () =>
        this.post(table, { content: `👑 The host left the server: **${name}** is the host now.`, allowedMentions: NO_MENTIONS }),
      );
      if (table.lobbyMessageId && table.state.phase === 'lobby') {
        this.edits.ran(`lobby:${table.state.id}`);
        await this.deliver(table, { what: 'the lobby update' }, () => this.editLobby(table, table.state));
      }
    });
  }

  /** Whether this game's Mafia chat goes by DM (no private thread). */
  mafiaChatsByDm(gameId: string): boolean {
    return this.mafiaByDm.has(gameId);
  }

  /** The Mafia thread was deleted mid-game: the Mafia's chat goes by DM from now on. */
  mafiaThreadGone(table: OutputGame): void {
    table.mafiaThreadId = null;
    this.enqueue(table.channelId, () => this.mafiaToDms(table, 'the Mafia thread was deleted'));
  }

  /**
   * One send on its own: its failure is logged, told to the host once (what is missing, and
   * where), and never stops the sends after it. A deleted channel ends the game instead.
   */
  private async deliver<T>(table: OutputGame, step: Step, send: () => Promise<T>): Promise<Result<T, SendProblem>> {
    if (this.gone.has(table.channelId)) return err({ kind: 'channel_gone' });
    const sent = await this.attempt(table, step.what, send);
    if (!sent.ok) await this.report(table, step, sent.error);
    return sent;
  }

  private async report(table: OutputGame, step: Step, problem: SendProblem): Promise<void> {
    // A send that was under way when the channel went (a kick answers 403): the players hear why by DM, nothing else.
    if (this.gone.has(table.channelId)) return;
    switch (problem.kind) {
      case 'channel_gone':
        this.channelGone(table.channelId);
        return;
      case 'forbidden': {
        const missing = missingPermissions(await this.textChannel(table.channelId).catch(() => null), step.needs ?? POST);
        const names = missing.map((p) => `**${permissionName(p)}**`).join(', ');
        await this.tell(
          table,
          `forbidden:${missing.join()}`,
          `⚠️ I could not send ${step.what} in <#${table.channelId}>: I need ${names} there.`,
        );
        return;
      }
      case 'dms_closed':
      case 'not_found':
        return;
      case 'failed':
        await this.tell(table, `failed:${step.what}`, `⚠️ Discord did not take ${step.what} (${problem.detail}); the game goes on.`);
        return;
    }
  }

  /** A DM on its own; closed DMs are told once per person, in the channel. */
  private async dm(
    table: OutputGame,
    to: { userId: string; name: string },
    what: string,
    message: MessageCreateOptions,
    keep?: (sent: Message) => void,
  ): Promise<boolean> {
    const sent = await this.attempt(table, `${what} for ${to.name}`, () => this.client.users.send(to.userId, message));
    if (sent.ok) {
      keep?.(sent.value);
      return true;
    }
    if (sent.error.kind === 'dms_closed' || sent.error.kind === 'forbidden') {
      await this.tell(
        table,
        `dm:${to.userId}`,
        `I could not DM **${to.name}** ${what}: allow direct messages from server members (Privacy Settings), then use \`/mafia status\` here.`,
      );
    } else {
      await this.report(table, { what: `${what} (a DM to ${to.name})` }, sent.error);
    }
    return false;
  }

  /** Says something to the host once per game and key: in the channel, else by DM, else only in the log. */
  private async tell(table: OutputGame, key: string, text: string): Promise<void> {
    if (!this.told.first(table.state.id, key)) return;
    const message = { content: text, allowedMentions: NO_MENTIONS };
    if (!this.gone.has(table.channelId)) {
      try {
        await this.post(table, message);
        return;
      } catch (error) {
        this.log.warn(`${table.state.id}: could not tell the host in the channel: ${String(error)}`);
      }
    }
    try {
      await this.client.users.send(table.hostId, message);
    } catch (error) {
      this.log.warn(`${table.state.id}: could not tell the host by DM either: ${String(error)}`);
    }
  }

  /** A game cancelled because its channel is gone: each person hears it by DM, with the reason. */
  private async tellPlayersCancelled(state: GameState, loss: ChannelLoss): Promise<void> {
    const content =
      loss.why === 'deleted'
        ? '🛑 Your Mafia game was cancelled: its channel was deleted. Nothing more will happen in it.'
        : `🛑 Your Mafia game in **${escapeMarkdown(loss.server)}** was cancelled: I was removed from the server. Nothing more will happen in it.`;
    for (const p of state.players) {
      if (p.kind !== 'human' || !p.userId) continue;
      try {
        await this.client.users.send(p.userId, {
          content,
          allowedMentions: NO_MENTIONS,
        });
      } catch (error) {
        this.log.warn(`${state.id}: cancellation DM to ${p.name} not sent: ${String(error)}`);
      }
    }
  }

  private async channel(id: string): Promise<SendableChannels | null> {
    const channel = await this.client.channels.fetch(id);
    return channel?.isSendable() ? channel : null;
  }

  private async post(table: OutputGame, message: BaseMessageOptions): Promise<void> {
    await (await this.channel(table.channelId))?.send(message);
  }

  private async textChannel(id: string): Promise<TextChannel | null> {
    const channel = await this.client.channels.fetch(id);
    return channel?.type === ChannelType.GuildText ? channel : null;
  }

  /** A private thread of the game channel with only the Mafia in it (the bot adds the humans; AI speak through the webhook). */
  private async mafiaThread(table: OutputGame, state: GameState): Promise<void> {
    if (table.mafiaThreadId || this.mafiaByDm.has(state.id)) return;
    const mafia = state.players.filter((p) => isMafia(p.role));
    const created = await this.attempt(table, 'the Mafia thread', () => this.createMafiaThread(table, state));
    if (!created.ok) {
      if (created.error.kind === 'channel_gone') {
        this.channelGone(table.channelId);
        return;
      }
      const missing = missingPermissions(await this.textChannel(table.channelId).catch(() => null), [
        'CreatePrivateThreads',
        'SendMessagesInThreads',
      ]);
      return this.mafiaToDms(table, `I need ${missing.map((p) => `**${permissionName(p)}**`).join(', ')} here for a private thread`);
    }
    const thread = created.value;
    table.mafiaThreadId = thread.id;
    for (const p of mafia) {
      const userId = p.userId;
      if (p.kind !== 'human' || !userId) continue;
      await this.deliver(table, { what: `${p.name}'s place in the Mafia thread`, needs: ['ManageThreads'] }, () =>
        thread.members.add(userId),
      );
    }
    await this.deliver(table, { what: 'the Mafia thread greeting', needs: ['SendMessagesInThreads'] }, () =>
      thread.send({
        content: `🔪 The Mafia meet here: ${mafia.map((p) => p.name).join(', ')}. Only you can read this thread. Propose the kill by the menu in your DMs.`,
        allowedMentions: NO_MENTIONS,
      }),
    );
  }

  private async createMafiaThread(table: OutputGame, state: GameState) {
    const channel = await this.textChannel(table.channelId);
    if (!channel) throw new Error('the game channel is not a text channel');
    return channel.threads.create({
      name: mafiaThreadName(state.id),
      type: ChannelType.PrivateThread,
      invitable: false,
      autoArchiveDuration: ThreadAutoArchiveDuration.OneWeek,
      reason: 'Mafia team chat',
    });
  }

  /** No thread for the Mafia: the host hears why once, and each human Mafia gets the team and their chat by DM. */
  private async mafiaToDms(table: OutputGame, why: string): Promise<void> {
    const state = table.state;
    this.mafiaByDm.add(state.id);
    await this.tell(
      table,
      'mafia-by-dm',
      `⚠️ The Mafia have no private thread (${why}): they coordinate by DM through me instead. Nothing else changes.`,
    );
    const mafia = state.players.filter((p) => isMafia(p.role) && p.alive);
    for (const p of mafia) {
      const userId = p.userId;
      if (p.kind !== 'human' || !userId) continue;
      await this.dm(table, { userId, name: p.name }, 'the Mafia team', {
        content: `🔪 The Mafia are ${mafia.map((m) => m.name).join(', ')}. There is no private thread this game: what you DM me during the game goes to the other Mafia, and their words come here. Propose the kill by the night menu.`,
        allowedMentions: NO_MENTIONS,
      });
    }
  }

  /** One send: its failure logged and handed back as a problem for the caller to handle. */
  private async attempt<T>(table: OutputGame, what: string, send: () => Promise<T>): Promise<Result<T, SendProblem>> {
    try {
      return ok(await send());
    } catch (error) {
      this.log.warn(`${table.state.id}: ${what} not sent: ${error instanceof Error ? error.message : String(error)}`);
      return err(sendProblem(error));
    }
  }

  /** AI speech goes out through the channel's webhook under the persona's name and avatar; people's own messages are already there. */
  private async speeches(table: OutputGame, events: readonly GameEvent[], state: GameState): Promise<void> {
    for (const e of events) {
      if (e.type !== 'speech') continue;
      const speaker = findPlayer(state, e.payload.playerId);
      if (!speaker) continue;
      if (e.payload.channel === 'mafia') {
        if (this.mafiaByDm.has(state.id)) await this.mafiaDm(table, state, speaker.id, speaker.name, e);
        else if (speaker.kind === 'ai' && table.mafiaThreadId)
          await this.speak(table, speaker.name, e.payload.text, speaker.id, table.mafiaThreadId);
      } else if (speaker.kind === 'ai' && !saidWithVote(events, e)) {
        await this.speak(table, speaker.name, e.payload.text, speaker.id);
      }
    }
  }

  /** Mafia chat without a thread: each other living human Mafia gets the line by DM (the copies follow its edits and deletion). */
  private async mafiaDm(table: OutputGame, state: GameState, fromId: string, fromName: string, said: GameEventOf<'speech'>): Promise<void> {
    // As the log holds it now: a line edited or deleted since it was said goes out so, or not at all.
    const now = state.log[said.seq - 1];
    const line = now?.type === 'speech' ? now : said;
    if (line.payload.deleted) return;
    for (const p of state.players) {
      const userId = p.userId;
      if (p.id === fromId || !isMafia(p.role) || !p.alive || p.kind !== 'human' || !userId) continue;
      const message = personaSpeechAsBot(`${fromName} (Mafia)`, spokenText(line.payload));
      await this.dm(table, { userId, name: p.name }, 'the Mafia chat', message, (copy) =>
        this.mafiaDmCopies.remember(state.id, line.seq, copy),
      );
    }
  }

  /** Through the webhook where the bot may; else as its own message, the persona named in bold. */
  private async speak(table: OutputGame, name: string, text: string, playerId: string, threadId?: string): Promise<void> {
    const where = threadId ? 'in the Mafia thread' : 'in the channel';
    if (this.webhooksGrantedAgain(table.channelId)) this.noWebhooks.delete(table.channelId);
    if (!this.noWebhooks.has(table.channelId)) {
      const avatar = table.avatars.get(playerId) ?? null;
      const sent = await this.attempt(table, `${name}'s words through the webhook`, () =>
        this.speakAs(table.channelId, personaSpeech(name, text, avatar, threadId)),
      );
      if (sent.ok) return;
      if (sent.error.kind !== 'forbidden') {
        await this.report(table, { what: `${name}'s words ${where}` }, sent.error);
        return;
      }
      this.noWebhooks.set(table.channelId, { permittedThen: this.mayManageWebhooks(table.channelId) });
      this.webhooks.delete(table.channelId);
      await this.tell(
        table,
        'no-webhooks',
        `⚠️ AI players speak as me in <#${table.channelId}>: give me **Manage Webhooks** there so each speaks under their own name and avatar.`,
      );
    }
    await this.deliver(table, { what: `${name}'s words ${where}`, needs: threadId ? ['SendMessagesInThreads'] : POST }, async () => {
      const target = await this.channel(threadId ?? table.channelId);
      await target?.send(personaSpeechAsBot(name, text));
    });
  }

  /** Whether discord.js's cache says the bot may manage webhooks in the channel (false when it cannot tell). */
  private mayManageWebhooks(channelId: string): boolean {
    const channel = this.client.channels.cache.get(channelId);
    if (channel?.type !== ChannelType.GuildText) return false;
    const me = channel.guild.members.me;
    return me !== null && channel.permissionsFor(me).has(PermissionFlagsBits.ManageWebhooks);
  }

  /** A channel refused webhooks while the bot lacked Manage Webhooks there, and which now grants it. */
  private webhooksGrantedAgain(channelId: string): boolean {
    const refused = this.noWebhooks.get(channelId);
    return refused !== undefined && !refused.permittedThen && this.mayManageWebhooks(channelId);
  }

  private async webhook(channelId: string): Promise<Webhook | null> {
    const cached = this.webhooks.get(channelId);
    if (cached) return cached;
    const channel = await this.textChannel(channelId);
    if (!channel) return null;
    const mine = (await channel.fetchWebhooks()).find((h) => h.owner?.id === this.client.user?.id && h.token !== null);
    const hook = mine ?? (await channel.createWebhook({ name: 'Dramatis', reason: 'AI players speak through it' }));
    this.webhooks.set(channelId, hook);
    return hook;
  }

  /** Sends through the channel's webhook; if it was deleted, makes a new one and tries once more. */
  private async speakAs(channelId: string, message: WebhookMessageCreateOptions): Promise<void> {
    try {
      await (await this.webhook(channelId))?.send(message);
    } catch (error) {
      if (!(error instanceof DiscordAPIError) || error.code !== UNKNOWN_WEBHOOK) throw error;
      this.webhooks.delete(channelId);
      await (await this.webhook(channelId))?.send(message);
    }
  }

  /**
   * The vote message: posted when the vote opens (with its opening line), its tally edited at most
   * every couple of seconds (votes meanwhile go into the next edit), frozen with the final tally,
   * at once, when it closes.
   */
  private async voteMessage(table: OutputGame, events: readonly GameEvent[], state: GameState, intro?: string): Promise<void> {
    const channel = await this.textChannel(table.channelId);
    if (!channel) return;
    const key = `vote:${state.id}`;
    const opened = events.some((e) => e.type === 'phase_started' && e.payload.phase === 'vote');
    if (state.phase === 'vote') {
      if (opened || !table.voteMessageId) {
        table.voteMessageId = (await channel.send({ ...voteMessage(state), ...(intro !== undefined && { content: intro }) })).id;
        this.edits.ran(key);
      } else if (this.edits.now(key)) {
        await channel.messages.edit(table.voteMessageId, voteMessage(state));
      } else {
        this.edits.later(key, () => this.enqueue(table.channelId, () => this.laterTally(table, state)));
      }
      return;
    }
    if (!table.voteMessageId) return;
    this.edits.forget(key);
    // The opening line ("open until …") no longer holds.
    await channel.messages.edit(table.voteMessageId, { ...closedVoteMessage(state), content: '' });
    table.voteMessageId = null;
  }

  /** A tally edit held back by the pace: the latest tally, unless that vote is over by now. */
  private async laterTally(table: OutputGame, state: GameState): Promise<void> {
    const messageId = table.voteMessageId;
    if (!messageId || table.state.phase !== 'vote' || table.state.day !== state.day) return;
    await this.deliver(table, { what: 'the vote message', needs: [...POST, 'EmbedLinks'] }, async () => {
      await (await this.textChannel(table.channelId))?.messages.edit(messageId, voteMessage(state));
    });
  }

  /** Each living human with a night action gets the menu by DM; on the Mafia's second round, the Mafia again. */
  private async nightActions(table: OutputGame, events: readonly GameEvent[], state: GameState): Promise<void> {
    if (state.phase !== 'night') return;
    const nightStarted = events.some((e) => e.type === 'phase_started' && e.payload.phase === 'night');
    const secondRound = events.some((e) => e.type === 'mafia_second_round');
    // The first night's menus went with the role cards.
    if ((!nightStarted && !secondRound) || events.some((e) => e.type === 'game_started')) return;
    for (const p of state.players) {
      if (p.kind !== 'human' || !p.userId || !p.alive) continue;
      if (!nightStarted && !isMafia(p.role)) continue;
      const message = nightActionMessage(state, p.id);
      if (!message) continue;
      await this.dm(table, { userId: p.userId, name: p.name }, 'their night menu', message);
    }
  }

  private async muteDead(table: OutputGame, state: GameState): Promise<void> {
    for (const p of state.players) {
      if (p.alive || p.kind !== 'human' || !p.userId) continue;
      if (state.phase === 'last_words' && state.lynchedToday === p.id) continue;
      const userId = p.userId;
      if (this.muted.get(table.channelId)?.has(userId)) continue;
      await this.deliver(table, { what: `the mute of ${p.name}, who is dead`, needs: ['ManageRoles'] }, () =>
        this.muteOne(table.channelId, userId),
      );
    }
  }

  private async muteOne(channelId: string, userId: string): Promise<void> {
    const channel = await this.textChannel(channelId);
    if (!channel) return;
    const me = channel.guild.members.me;
    if (!me || !channel.permissionsFor(me).has(PermissionFlagsBits.ManageRoles)) return;
    const set = this.muted.get(channelId) ?? new Set<string>();
    this.muted.set(channelId, set);
    if (set.has(userId)) return;
    await channel.permissionOverwrites.edit(userId, { SendMessages: false }, { reason: 'Dead players do not speak' });
    set.add(userId);
  }

  private async unmuteAll(table: OutputGame): Promise<void> {
    const set = this.muted.get(table.channelId);
    this.muted.delete(table.channelId);
    const channel = set && set.size > 0 ? await this.textChannel(table.channelId) : null;
    if (!set || !channel) return;
    for (const userId of set) {
      await this.deliver(table, { what: 'the unmute of a dead player', needs: ['ManageRoles'] }, () =>
        channel.permissionOverwrites.delete(userId, 'The game is over'),
      );
    }
  }

  /** The director's cut: a message with the Markdown file, and a thread on it with the text; the thread's id. */
  private async directorsCut(table: OutputGame, state: GameState): Promise<string | null> {
    const channel = await this.textChannel(table.channelId);
    const files = await gameReport(state, channel ? `#${channel.name}` : 'Mafia');
    const markdown = files?.[0];
    if (!channel || !files || !markdown) return null;
    const message = await channel.send({
      content: "🎬 **The director's cut**: every AI seat's private reasoning beside the public record.",
      files: files.slice(0, MAX_FILES).map((f) => ({ attachment: f.data, name: f.name })),
      allowedMentions: NO_MENTIONS,
    });
    const thread = await message.startThread({
      name: `Director's cut ${state.id.slice(0, 8)}`,
      autoArchiveDuration: ThreadAutoArchiveDuration.OneDay,
    });
    const chunks = chunkMarkdown(markdown.data.toString('utf8'), MAX_CONTENT);
    const shown = chunks.slice(0, MAX_CUT_CHUNKS);
    // Each piece is an embed, three to a message (Discord's 6,000 characters of embeds): a third of the messages.
    for (let i = 0; i < shown.length; i += CUT_CHUNKS_PER_MESSAGE) {
      const embeds = shown
        .slice(i, i + CUT_CHUNKS_PER_MESSAGE)
        .map((chunk) => new EmbedBuilder().setColor(COLOURS.info).setDescription(chunk));
      await thread.send({ embeds, allowedMentions: NO_MENTIONS });
    }
    if (chunks.length > MAX_CUT_CHUNKS) await thread.send({ content: 'The rest is in the attached file.', allowedMentions: NO_MENTIONS });
    return thread.id;
  }

  /**
   * The lobby kept current. People see their own seat at once (their click waits for it), and the
   * start and the end at once; AI seats the host adds show within a couple of seconds, several in one edit.
   */
  private async lobbyUpdate(table: OutputGame, events: readonly GameEvent[], state: GameState): Promise<void> {
    const key = `lobby:${state.id}`;
    const byPeople = events.some((e) => e.type !== 'player_joined' || e.payload.player.kind === 'human');
    if (byPeople) this.edits.ran(key);
    else if (!this.edits.now(key)) {
      this.edits.later(key, () =>
        this.enqueue(table.channelId, async () => {
          if (table.state.phase !== 'lobby') return;
          await this.deliver(table, { what: 'the lobby update' }, () => this.editLobby(table, state));
        }),
      );
      return;
    }
    await this.deliver(table, { what: 'the lobby update' }, () => this.editLobby(table, state));
  }

  private async editLobby(table: OutputGame, state: GameState): Promise<void> {
    // A click whose change is being stored answers with the lobby itself, drawn once stored.
    if ((this.lobbyClicks.get(state.id) ?? 0) > 0) return;
    const channel = await this.channel(table.channelId);
    if (!channel || !('messages' in channel) || !table.lobbyMessageId) return;
    await channel.messages.edit(table.lobbyMessageId, lobbyMessage(state, table.hostId));
  }

  /** A lobby button's click will answer with the lobby message itself (one call for the answer and the edit): until it is done, the output leaves the lobby to it. */
  lobbyClickPending(gameId: string): void {
    this.lobbyClicks.set(gameId, (this.lobbyClicks.get(gameId) ?? 0) + 1);
  }

  /** The click has drawn the lobby (or given up): the output edits the lobby again once no click is pending. */
  lobbyClickDone(gameId: string): void {
    const left = (this.lobbyClicks.get(gameId) ?? 1) - 1;
    if (left > 0) this.lobbyClicks.set(gameId, left);
    else this.lobbyClicks.delete(gameId);
  }

  /**
   * Each person gets their own card, built from their own view only (viewFor is the one gate for
   * secrets); when the game starts at night, with their first night menu in the same message.
   */
  private async roleCards(table: OutputGame, events: readonly GameEvent[], state: GameState): Promise<void> {
    const channel = await this.channel(table.channelId);
    const channelName = channel && 'name' in channel && typeof channel.name === 'string' ? channel.name : 'the game channel';
    const nightFalls = state.phase === 'night' && events.some((e) => e.type === 'phase_started' && e.payload.phase === 'night');
    for (const player of state.players) {
      const userId = player.userId;
      if (player.kind !== 'human' || !userId) continue;
      const view = viewFor(state, player.id);
      if (!view) continue;
      const card = roleCardMessage(view, channelName);
      const menu = nightFalls ? nightActionMessage(state, player.id) : null;
      const message = menu ? { ...card, embeds: [...(card.embeds ?? []), ...(menu.embeds ?? [])], components: menu.components } : card;
      await this.dm(table, { userId, name: player.name }, menu ? 'their role card and night menu' : 'their role card', message);
    }
  }
}
