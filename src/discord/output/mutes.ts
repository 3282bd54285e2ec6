import { PermissionFlagsBits } from 'discord.js';
import type { GameState } from '../../game/index.ts';
import type { OutputGame, Sends } from './sends.ts';

/** Dead people do not speak in the game channel: muted there while the game runs, where the bot may, and unmuted at its end. */
export class Mutes {
  /** Dead people this process has muted, per channel (bound: channels of running games; forgotten at the end). */
  private readonly muted = new Map<string, Set<string>>();

  constructor(private readonly sends: Sends) {}

  /** Each dead person not muted yet, except the one saying their last words. */
  async dead(game: OutputGame, state: GameState): Promise<void> {
    for (const p of state.players) {
      if (p.alive || p.kind !== 'human' || !p.userId) continue;
      if (state.phase === 'last_words' && state.lynchedToday === p.id) continue;
      const userId = p.userId;
      if (this.muted.get(game.channelId)?.has(userId)) continue;
      await this.sends.deliver(game, { what: `the mute of ${p.name}, who is dead`, needs: ['ManageRoles'] }, () =>
        this.one(game.channelId, userId),
      );
    }
  }

  async one(channelId: string, userId: string): Promise<void> {
    const channel = await this.sends.textChannel(channelId);
    if (!channel) return;
    const me = channel.guild.members.me;
    if (!me || !channel.permissionsFor(me).has(PermissionFlagsBits.ManageRoles)) return;
    const set = this.muted.get(channelId) ?? new Set<string>();
    this.muted.set(channelId, set);
    if (set.has(userId)) return;
    await channel.permissionOverwrites.edit(userId, { SendMessages: false }, { reason: 'Dead players do not speak' });
    set.add(userId);
  }

  /** The game is over: everyone this process muted may speak again. */
  async unmuteAll(game: OutputGame): Promise<void> {
    const set = this.muted.get(game.channelId);
    this.muted.delete(game.channelId);
    const channel = set && set.size > 0 ? await this.sends.textChannel(game.channelId) : null;
    if (!set || !channel) return;
    for (const userId of set) {
      await this.sends.deliver(game, { what: 'the unmute of a dead player', needs: ['ManageRoles'] }, () =>
        channel.permissionOverwrites.delete(userId, 'The game is over'),
      );
    }
  }

  /** Channels with someone muted. */
  get size(): number {
    return this.muted.size;
  }
}
