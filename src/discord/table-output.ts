import type { BaseMessageOptions, Client, SendableChannels } from 'discord.js';
import { viewFor, type GameEvent, type GameState } from '../game/index.ts';
import type { Logger } from '../log.ts';
import { lobbyMessage } from './lobby-view.ts';
import { announcements } from './presenters/announce.ts';
import { NO_MENTIONS } from './presenters/format.ts';
import { roleCardMessage } from './presenters/role-card.ts';

/** What the output needs of a table (kept structural so tables.ts and this file do not import each other). */
export interface OutputTable {
  readonly channelId: string;
  readonly hostId: string;
  readonly state: GameState;
  lobbyMessageId: string | null;
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

  constructor(
    private readonly client: Client,
    private readonly log: Logger,
  ) {}

  published(table: OutputTable, events: readonly GameEvent[], state: GameState): void {
    this.enqueue(table.channelId, async () => {
      if (table.lobbyMessageId && events.some((e) => LOBBY_EVENTS.has(e.type))) await this.editLobby(table, state);
      if (events.some((e) => e.type === 'game_started')) await this.roleCards(table, state);
      for (const message of announcements(state, events)) await this.post(table, message);
    });
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
