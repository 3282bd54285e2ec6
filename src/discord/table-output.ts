import {
  ChannelType,
  DiscordAPIError,
  PermissionFlagsBits,
  ThreadAutoArchiveDuration,
  type BaseMessageOptions,
  type Client,
  type SendableChannels,
  type TextChannel,
  type Webhook,
  type WebhookMessageCreateOptions,
} from 'discord.js';
import { findPlayer, isMafia, viewFor, type GameEvent, type GameState } from '../game/index.ts';
import type { Logger } from '../log.ts';
import { lobbyMessage } from './lobby-view.ts';
import { announcements } from './presenters/announce.ts';
import { NO_MENTIONS } from './presenters/format.ts';
import { roleCardMessage } from './presenters/role-card.ts';
import { nightActionMessage } from './presenters/night-action.ts';
import { closedVoteMessage, voteMessage } from './presenters/vote.ts';
import { personaSpeech } from './presenters/persona-speech.ts';
import { nightReminderDm, owingNightAction, reminderDue, reminderMessage } from './presenters/reminder.ts';
import { chunkMarkdown } from '../chunk-markdown.ts';
import { directorsCutFile } from './presenters/directors-cut.ts';
import { MAX_CONTENT } from './presenters/format.ts';

/** What the output needs of a table (kept structural so tables.ts and this file do not import each other). */
export interface OutputTable {
  readonly channelId: string;
  readonly hostId: string;
  readonly state: GameState;
  lobbyMessageId: string | null;
  voteMessageId: string | null;
  mafiaThreadId: string | null;
  readonly avatars: ReadonlyMap<string, string>;
}

/** Discord's "Unknown Webhook": someone deleted the channel's webhook. */
const UNKNOWN_WEBHOOK = 10015;
const VOTE_EVENTS = new Set<GameEvent['type']>(['vote_cast', 'vote_withdrawn', 'phase_started']);

/** The name of a game's Mafia thread; the game id in it lets a restarted process find the thread again. */
function mafiaThreadName(gameId: string): string {
  return `mafia-${gameId.slice(0, 8)}`;
}

const LOBBY_EVENTS = new Set<GameEvent['type']>(['player_joined', 'player_left', 'game_started', 'game_ended']);

/**
 * Turns what a session published into Discord messages, in order per game (a later batch never
 * overtakes an earlier one). Failures are logged: the game is already stored, and a message that
 * could not be sent must not stop it.
 *
 * Later slices plug in here: night-action DMs (presenters/night-action) on `phase_started` night,
 * the vote message (presenters/vote) on `phase_started` vote, AI speech through the channel
 * webhook (presenters/persona-speech) on `speech`, the Mafia thread on `mafia_team`, and the
 * director's cut (presenters/directors-cut) on `game_ended`.
 */
export class TableOutput {
  private readonly chains = new Map<string, Promise<void>>();
  /** One webhook per channel, created once and cached. */
  private readonly webhooks = new Map<string, Webhook>();
  /** Dead people this process has muted, per channel. */
  private readonly muted = new Map<string, Set<string>>();

  constructor(
    private readonly client: Client,
    private readonly log: Logger,
  ) {}

  published(table: OutputTable, events: readonly GameEvent[], state: GameState): void {
    this.enqueue(table.channelId, async () => {
      if (table.lobbyMessageId && events.some((e) => LOBBY_EVENTS.has(e.type))) await this.editLobby(table, state);
      if (events.some((e) => e.type === 'game_started')) await this.roleCards(table, state);
      if (events.some((e) => e.type === 'mafia_team')) await this.mafiaThread(table, state);
      for (const message of announcements(state, events)) await this.post(table, message);
      await this.speeches(table, events, state);
      if (events.some((e) => VOTE_EVENTS.has(e.type))) await this.voteMessage(table, events, state);
      await this.nightActions(table, events, state);
      if (events.some((e) => e.type === 'player_died' || e.type === 'phase_started')) await this.muteDead(table, state);
      if (events.some((e) => e.type === 'game_ended')) {
        await this.unmuteAll(table);
        await this.directorsCut(table, state);
      }
    });
  }

  /** A dead person who spoke in the channel: muted there where the bot may (queued with the game's other output). */
  mute(table: OutputTable, userId: string): void {
    this.enqueue(table.channelId, () => this.muteOne(table.channelId, userId));
  }

  /** Shortly before a deadline: a reminder in the channel, and at night a DM to each person who has not acted. */
  remind(table: OutputTable, state: GameState, msLeft: number): void {
    if (!reminderDue(state, msLeft)) return;
    this.enqueue(table.channelId, async () => {
      const message = reminderMessage(state);
      if (message) await this.post(table, message);
      if (state.phase !== 'night') return;
      for (const p of owingNightAction(state)) {
        const dm = nightReminderDm(state, p.id);
        if (!dm || !p.userId) continue;
        try {
          await this.client.users.send(p.userId, dm);
        } catch (error) {
          this.log.warn(`night reminder for ${p.name} in ${state.id} not sent: ${String(error)}`);
        }
      }
    });
  }

  /** After a restart: the Mafia thread of a running game, found again by its name. */
  async recover(table: OutputTable): Promise<void> {
    if (table.mafiaThreadId || table.state.phase === 'lobby') return;
    try {
      const channel = await this.client.channels.fetch(table.channelId);
      if (channel?.type !== ChannelType.GuildText) return;
      const active = await channel.threads.fetchActive();
      const thread = active.threads.find((t) => t.parentId === channel.id && t.name === mafiaThreadName(table.state.id));
      if (thread) table.mafiaThreadId = thread.id;
    } catch (error) {
      this.log.warn(`Mafia thread of ${table.state.id} not found again: ${String(error)}`);
    }
  }

  /** A typing indicator in the channel while an AI seat thinks about what to say by day. */
  thinking(table: OutputTable, _playerId: string, busy: boolean): void {
    if (!busy || table.state.phase !== 'day') return;
    void this.channel(table.channelId)
      .then((channel) => channel?.sendTyping())
      .catch(() => undefined);
  }

  async idle(): Promise<void> {
    await Promise.allSettled([...this.chains.values()]);
  }

  private enqueue(key: string, job: () => Promise<void>): void {
    const next = (this.chains.get(key) ?? Promise.resolve())
      .then(job)
      .catch((error: unknown) => this.log.warn(`posting to ${key} failed: ${error instanceof Error ? error.message : String(error)}`));
    this.chains.set(key, next);
  }

  private async channel(id: string): Promise<SendableChannels | null> {
    const channel = await this.client.channels.fetch(id);
    return channel?.isSendable() ? channel : null;
  }

  private async post(table: OutputTable, message: BaseMessageOptions): Promise<void> {
    await (await this.channel(table.channelId))?.send(message);
  }

  private async textChannel(id: string): Promise<TextChannel | null> {
    const channel = await this.client.channels.fetch(id);
    return channel?.type === ChannelType.GuildText ? channel : null;
  }

  /** A private thread of the game channel with only the Mafia in it (the bot adds the humans; AI speak through the webhook). */
  private async mafiaThread(table: OutputTable, state: GameState): Promise<void> {
    if (table.mafiaThreadId) return;
    const channel = await this.textChannel(table.channelId);
    if (!channel) return;
    const thread = await channel.threads.create({
      name: mafiaThreadName(state.id),
      type: ChannelType.PrivateThread,
      invitable: false,
      autoArchiveDuration: ThreadAutoArchiveDuration.OneWeek,
      reason: 'Mafia team chat',
    });
    table.mafiaThreadId = thread.id;
    const mafia = state.players.filter((p) => isMafia(p.role));
    for (const p of mafia) if (p.kind === 'human' && p.userId) await thread.members.add(p.userId);
    await thread.send({
      content: `🔪 The Mafia meet here: ${mafia.map((p) => p.name).join(', ')}. Only you can read this thread. Propose the kill by the menu in your DMs.`,
      allowedMentions: NO_MENTIONS,
    });
  }

  /** AI speech goes out through the channel's webhook under the persona's name and avatar; people's own messages are already there. */
  private async speeches(table: OutputTable, events: readonly GameEvent[], state: GameState): Promise<void> {
    for (const e of events) {
      if (e.type !== 'speech') continue;
      const speaker = findPlayer(state, e.payload.playerId);
      if (!speaker || speaker.kind !== 'ai') continue;
      const avatar = table.avatars.get(speaker.id) ?? null;
      if (e.payload.channel === 'mafia') {
        if (table.mafiaThreadId)
          await this.speakAs(table.channelId, personaSpeech(speaker.name, e.payload.text, avatar, table.mafiaThreadId));
      } else {
        await this.speakAs(table.channelId, personaSpeech(speaker.name, e.payload.text, avatar));
      }
    }
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

  /** The vote message: posted when the vote opens, edited on every vote, frozen with the final tally when it closes. */
  private async voteMessage(table: OutputTable, events: readonly GameEvent[], state: GameState): Promise<void> {
    const channel = await this.textChannel(table.channelId);
    if (!channel) return;
    const opened = events.some((e) => e.type === 'phase_started' && e.payload.phase === 'vote');
    if (state.phase === 'vote') {
      if (opened || !table.voteMessageId) {
        table.voteMessageId = (await channel.send(voteMessage(state))).id;
      } else {
        await channel.messages.edit(table.voteMessageId, voteMessage(state));
      }
      return;
    }
    if (!table.voteMessageId) return;
    await channel.messages.edit(table.voteMessageId, closedVoteMessage(state));
    table.voteMessageId = null;
  }

  /** Each living human with a night action gets the menu by DM; on the Mafia's second round, the Mafia again. */
  private async nightActions(table: OutputTable, events: readonly GameEvent[], state: GameState): Promise<void> {
    if (state.phase !== 'night') return;
    const nightStarted = events.some((e) => e.type === 'phase_started' && e.payload.phase === 'night');
    const secondRound = events.some((e) => e.type === 'mafia_second_round');
    if (!nightStarted && !secondRound) return;
    for (const p of state.players) {
      if (p.kind !== 'human' || !p.userId || !p.alive) continue;
      if (!nightStarted && !isMafia(p.role)) continue;
      const message = nightActionMessage(state, p.id);
      if (!message) continue;
      try {
        await this.client.users.send(p.userId, message);
      } catch (error) {
        this.log.warn(`night menu for ${p.name} in ${state.id} not sent: ${String(error)}`);
      }
    }
  }

  private async muteDead(table: OutputTable, state: GameState): Promise<void> {
    for (const p of state.players) {
      if (p.alive || p.kind !== 'human' || !p.userId) continue;
      if (state.phase === 'last_words' && state.lynchedToday === p.id) continue;
      if (this.muted.get(table.channelId)?.has(p.userId)) continue;
      await this.muteOne(table.channelId, p.userId);
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

  private async unmuteAll(table: OutputTable): Promise<void> {
    const set = this.muted.get(table.channelId);
    const channel = set && set.size > 0 ? await this.textChannel(table.channelId) : null;
    if (!set || !channel) return;
    for (const userId of set) await channel.permissionOverwrites.delete(userId, 'The game is over');
    this.muted.delete(table.channelId);
  }

  /** The director's cut: a message with the Markdown file, and a thread on it with the text. */
  private async directorsCut(table: OutputTable, state: GameState): Promise<void> {
    const channel = await this.textChannel(table.channelId);
    const file = directorsCutFile(state, channel ? `#${channel.name}` : 'Mafia');
    if (!channel || !file) return;
    const message = await channel.send({
      content: "🎬 **The director's cut**: every AI seat's private reasoning beside the public record.",
      files: [{ attachment: Buffer.from(file.content, 'utf8'), name: file.name }],
      allowedMentions: NO_MENTIONS,
    });
    const thread = await message.startThread({
      name: `Director's cut ${state.id.slice(0, 8)}`,
      autoArchiveDuration: ThreadAutoArchiveDuration.OneDay,
    });
    const chunks = chunkMarkdown(file.content, MAX_CONTENT);
    for (const chunk of chunks.slice(0, 20)) await thread.send({ content: chunk, allowedMentions: NO_MENTIONS });
    if (chunks.length > 20) await thread.send({ content: 'The rest is in the attached file.', allowedMentions: NO_MENTIONS });
  }

  private async editLobby(table: OutputTable, state: GameState): Promise<void> {
    const channel = await this.channel(table.channelId);
    if (!channel || !('messages' in channel) || !table.lobbyMessageId) return;
    await channel.messages.edit(table.lobbyMessageId, lobbyMessage(state, table.hostId));
  }

  /** Each person gets their own card, built from their own view only (viewFor is the one gate for secrets). */
  private async roleCards(table: OutputTable, state: GameState): Promise<void> {
    const channel = await this.channel(table.channelId);
    const channelName = channel && 'name' in channel && typeof channel.name === 'string' ? channel.name : 'the game channel';
    const unreachable: string[] = [];
    for (const player of state.players) {
      if (player.kind !== 'human' || !player.userId) continue;
      const view = viewFor(state, player.id);
      if (!view) continue;
      try {
        await this.client.users.send(player.userId, roleCardMessage(view, channelName));
      } catch {
        unreachable.push(player.name);
      }
    }
    if (unreachable.length > 0) {
      await this.post(table, {
        content: `I could not DM ${unreachable.join(', ')}: allow direct messages from server members (Privacy Settings), then use \`/mafia status\` here.`,
        allowedMentions: NO_MENTIONS,
      });
    }
  }
}
