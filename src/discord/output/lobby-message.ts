import type { GameEvent, GameState } from '../../game/index.ts';
import { lobbyMessage } from '../lobby-view.ts';
import type { Pacer } from '../pacer.ts';
import type { OutputGame, Sends } from './sends.ts';

/**
 * The lobby message kept current. People see their own seat at once (their click waits for it),
 * and the start and the end at once; AI seats the host adds show within a couple of seconds, several
 * in one edit. A lobby button's click answers with the lobby message itself: meanwhile it is left to it.
 */
export class LobbyMessage {
  /** Lobby clicks being stored, per game: each answers with the lobby itself (bound: clicks in flight). */
  private readonly clicks = new Map<string, number>();

  constructor(
    private readonly sends: Sends,
    /** Edits of kept-current messages, per game (`lobby:<game>` here). */
    private readonly edits: Pacer,
  ) {}

  /** The lobby brought up to date with these events. */
  async update(game: OutputGame, events: readonly GameEvent[], state: GameState): Promise<void> {
    const key = `lobby:${state.id}`;
    const byPeople = events.some((e) => e.type !== 'player_joined' || e.payload.player.kind === 'human');
    if (byPeople) this.edits.ran(key);
    else if (!this.edits.now(key)) {
      this.edits.later(key, () =>
        this.sends.enqueue(game.channelId, async () => {
          if (game.state.phase !== 'lobby') return;
          await this.sends.deliver(game, { what: 'the lobby update' }, () => this.edit(game, state));
        }),
      );
      return;
    }
    await this.sends.deliver(game, { what: 'the lobby update' }, () => this.edit(game, state));
  }

  /** The lobby drawn again at once (its host changed). */
  async redraw(game: OutputGame): Promise<void> {
    this.edits.ran(`lobby:${game.state.id}`);
    await this.sends.deliver(game, { what: 'the lobby update' }, () => this.edit(game, game.state));
  }

  /** A lobby button's click will answer with the lobby message itself (one call for the answer and the edit): until it is done, the output leaves the lobby to it. */
  clickPending(gameId: string): void {
    this.clicks.set(gameId, (this.clicks.get(gameId) ?? 0) + 1);
  }

  /** The click has drawn the lobby (or given up): the output edits the lobby again once no click is pending. */
  clickDone(gameId: string): void {
    const left = (this.clicks.get(gameId) ?? 1) - 1;
    if (left > 0) this.clicks.set(gameId, left);
    else this.clicks.delete(gameId);
  }

  /** Games with a click in flight. */
  get size(): number {
    return this.clicks.size;
  }

  /** The game is over: its pending edit and clicks are forgotten. */
  forget(gameId: string): void {
    this.edits.forget(`lobby:${gameId}`);
    this.clicks.delete(gameId);
  }

  private async edit(game: OutputGame, state: GameState): Promise<void> {
    // A click whose change is being stored answers with the lobby itself, drawn once stored.
    if ((this.clicks.get(state.id) ?? 0) > 0) return;
    const channel = await this.sends.channel(game.channelId);
    if (!channel || !('messages' in channel) || !game.lobbyMessageId) return;
    await channel.messages.edit(game.lobbyMessageId, lobbyMessage(state, game.hostId));
  }
}
