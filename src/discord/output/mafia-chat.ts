import { ChannelType, ThreadAutoArchiveDuration } from 'discord.js';
import { isMafia, spokenText, type GameEvent, type GameEventOf, type GameState } from '../../game/index.ts';
import { missingPermissions, permissionName } from '../delivery.ts';
import { MafiaDmCopies } from '../mafia-dm-copies.ts';
import { NO_MENTIONS } from '../presenters/format.ts';
import { personaSpeechAsBot } from '../presenters/persona-speech.ts';
import type { OutputGame, Sends } from './sends.ts';

/** The name of a game's Mafia thread; the game id in it lets a restarted process find the thread again. */
function mafiaThreadName(gameId: string): string {
  return `mafia-${gameId.slice(0, 8)}`;
}

/**
 * Where the Mafia talk: a private thread of the game channel, or, where the bot cannot make one
 * (or it was deleted), DMs through the bot, each line copied to the other living human Mafia.
 */
export class MafiaChat {
  /** Games whose Mafia could not get a thread: the Mafia's chat goes by DM (bound: running games; forgotten at the end). */
  private readonly byDm = new Set<string>();
  /** The DM copies of each Mafia chat line, so they follow the line's edits and deletion. */
  private readonly copies: MafiaDmCopies;

  constructor(private readonly sends: Sends) {
    this.copies = new MafiaDmCopies(sends.log);
  }

  /** Whether this game's Mafia chat goes by DM (no private thread). */
  chatsByDm(gameId: string): boolean {
    return this.byDm.has(gameId);
  }

  /** Games whose Mafia chat by DM. */
  get size(): number {
    return this.byDm.size;
  }

  /** A private thread of the game channel with only the Mafia in it (the bot adds the humans; AI speak through the webhook). */
  async open(game: OutputGame, state: GameState): Promise<void> {
    if (game.mafiaThreadId || this.byDm.has(state.id)) return;
    const mafia = state.players.filter((p) => isMafia(p.role));
    const created = await this.sends.attempt(game, 'the Mafia thread', () => this.createThread(game, state));
    if (!created.ok) {
      if (created.error.kind === 'channel_gone') {
        this.sends.channelGone(game.channelId);
        return;
      }
      const missing = missingPermissions(await this.sends.textChannel(game.channelId).catch(() => null), [
        'CreatePrivateThreads',
        'SendMessagesInThreads',
      ]);
      return this.toDms(game, `I need ${missing.map((p) => `**${permissionName(p)}**`).join(', ')} here for a private thread`);
    }
    const thread = created.value;
    game.mafiaThreadId = thread.id;
    for (const p of mafia) {
      const userId = p.userId;
      if (p.kind !== 'human' || !userId) continue;
      await this.sends.deliver(game, { what: `${p.name}'s place in the Mafia thread`, needs: ['ManageThreads'] }, () =>
        thread.members.add(userId),
      );
    }
    await this.sends.deliver(game, { what: 'the Mafia thread greeting', needs: ['SendMessagesInThreads'] }, () =>
      thread.send({
        content: `🔪 The Mafia meet here: ${mafia.map((p) => p.name).join(', ')}. Only you can read this thread. Propose the kill by the menu in your DMs.`,
        allowedMentions: NO_MENTIONS,
      }),
    );
  }

  private async createThread(game: OutputGame, state: GameState) {
    const channel = await this.sends.textChannel(game.channelId);
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
  async toDms(game: OutputGame, why: string): Promise<void> {
    const state = game.state;
    this.byDm.add(state.id);
    await this.sends.tell(
      game,
      'mafia-by-dm',
      `⚠️ The Mafia have no private thread (${why}): they coordinate by DM through me instead. Nothing else changes.`,
    );
    const mafia = state.players.filter((p) => isMafia(p.role) && p.alive);
    for (const p of mafia) {
      const userId = p.userId;
      if (p.kind !== 'human' || !userId) continue;
      await this.sends.dm(game, { userId, name: p.name }, 'the Mafia team', {
        content: `🔪 The Mafia are ${mafia.map((m) => m.name).join(', ')}. There is no private thread this game: what you DM me during the game goes to the other Mafia, and their words come here. Propose the kill by the night menu.`,
        allowedMentions: NO_MENTIONS,
      });
    }
  }

  /** Mafia chat without a thread: each other living human Mafia gets the line by DM (the copies follow its edits and deletion). */
  async dmLine(game: OutputGame, state: GameState, fromId: string, fromName: string, said: GameEventOf<'speech'>): Promise<void> {
    // As the log holds it now: a line edited or deleted since it was said goes out so, or not at all.
    const now = state.log[said.seq - 1];
    const line = now?.type === 'speech' ? now : said;
    if (line.payload.deleted) return;
    for (const p of state.players) {
      const userId = p.userId;
      if (p.id === fromId || !isMafia(p.role) || !p.alive || p.kind !== 'human' || !userId) continue;
      const message = personaSpeechAsBot(`${fromName} (Mafia)`, spokenText(line.payload));
      await this.sends.dm(game, { userId, name: p.name }, 'the Mafia chat', message, (copy) =>
        this.copies.remember(state.id, line.seq, copy),
      );
    }
  }

  /** The DM copies of lines these events edited or deleted, brought in line with them. */
  follow(gameId: string, events: readonly GameEvent[], state: GameState): Promise<void> {
    return this.copies.follow(gameId, events, state);
  }

  /** After a restart: the Mafia thread of a running game, found again by its name. */
  async recover(game: OutputGame): Promise<void> {
    if (game.mafiaThreadId || game.state.phase === 'lobby') return;
    try {
      const channel = await this.sends.client.channels.fetch(game.channelId);
      if (channel?.type !== ChannelType.GuildText) return;
      const active = await channel.threads.fetchActive();
      const thread = active.threads.find((t) => t.parentId === channel.id && t.name === mafiaThreadName(game.state.id));
      if (thread) game.mafiaThreadId = thread.id;
      // No thread of its own: the Mafia chatted by DM before the restart (they were told then), and go on so.
      else this.byDm.add(game.state.id);
    } catch (error) {
      this.sends.log.warn(`Mafia thread of ${game.state.id} not found again: ${String(error)}`);
    }
  }

  /** The game is over: whether it chatted by DM, and the copies, are forgotten. */
  forget(gameId: string): void {
    this.byDm.delete(gameId);
    this.copies.forget(gameId);
  }
}
