import {
  ChannelType,
  DiscordAPIError,
  LimitedCollection,
  PermissionFlagsBits,
  type Webhook,
  type WebhookMessageCreateOptions,
} from 'discord.js';
import { findPlayer, type GameEvent, type GameState } from '../../game/index.ts';
import { personaSpeech, personaSpeechAsBot } from '../presenters/persona-speech.ts';
import { saidWithVote } from '../presenters/vote.ts';
import type { MafiaChat } from './mafia-chat.ts';
import { CHANNELS_KEPT, POST, type OutputGame, type Sends } from './sends.ts';

/** Discord's "Unknown Webhook": someone deleted the channel's webhook. */
const UNKNOWN_WEBHOOK = 10015;

/** What AI seats say: through the channel's webhook under each persona's name and avatar, or as the bot. */
export class Speech {
  /** One webhook per channel, created once and cached (bound: CHANNELS_KEPT). */
  private readonly webhooks = new LimitedCollection<string, Webhook>({ maxSize: CHANNELS_KEPT });
  /**
   * Channels where Discord refused the bot webhooks, and whether discord.js's cache said the bot had
   * Manage Webhooks there when it did (bound: CHANNELS_KEPT). Where the cache said no, the bot
   * tries webhooks again once the cache says yes (a role or overwrite changed); where it said yes,
   * the cache cannot tell a grant, so the channel stays without them while the bot runs.
   */
  private readonly noWebhooks = new LimitedCollection<string, { readonly permittedThen: boolean }>({ maxSize: CHANNELS_KEPT });

  constructor(
    private readonly sends: Sends,
    private readonly mafia: MafiaChat,
  ) {}

  /** AI speech goes out through the channel's webhook under the persona's name and avatar; people's own messages are already there. */
  async speeches(game: OutputGame, events: readonly GameEvent[], state: GameState): Promise<void> {
    for (const e of events) {
      if (e.type !== 'speech') continue;
      const speaker = findPlayer(state, e.payload.playerId);
      if (!speaker) continue;
      if (e.payload.channel === 'mafia') {
        if (this.mafia.chatsByDm(state.id)) await this.mafia.dmLine(game, state, speaker.id, speaker.name, e);
        else if (speaker.kind === 'ai' && game.mafiaThreadId)
          await this.speak(game, speaker.name, e.payload.text, speaker.id, game.mafiaThreadId);
      } else if (speaker.kind === 'ai' && !saidWithVote(events, e)) {
        await this.speak(game, speaker.name, e.payload.text, speaker.id);
      }
    }
  }

  /** The channel is gone: its webhook is forgotten. */
  forget(channelId: string): void {
    this.webhooks.delete(channelId);
  }

  /** How many entries each of its tables holds. */
  held(): { readonly webhooks: number; readonly noWebhooks: number } {
    return { webhooks: this.webhooks.size, noWebhooks: this.noWebhooks.size };
  }

  /** Through the webhook where the bot may; else as its own message, the persona named in bold. */
  private async speak(game: OutputGame, name: string, text: string, playerId: string, threadId?: string): Promise<void> {
    const where = threadId ? 'in the Mafia thread' : 'in the channel';
    if (this.webhooksGrantedAgain(game.channelId)) this.noWebhooks.delete(game.channelId);
    if (!this.noWebhooks.has(game.channelId)) {
      const avatar = game.avatars.get(playerId) ?? null;
      const sent = await this.sends.attempt(game, `${name}'s words through the webhook`, () =>
        this.speakAs(game.channelId, personaSpeech(name, text, avatar, threadId)),
      );
      if (sent.ok) return;
      if (sent.error.kind !== 'forbidden') {
        await this.sends.report(game, { what: `${name}'s words ${where}` }, sent.error);
        return;
      }
      this.noWebhooks.set(game.channelId, { permittedThen: this.mayManageWebhooks(game.channelId) });
      this.webhooks.delete(game.channelId);
      await this.sends.tell(
        game,
        'no-webhooks',
        `⚠️ AI players speak as me in <#${game.channelId}>: give me **Manage Webhooks** there so each speaks under their own name and avatar.`,
      );
    }
    await this.sends.deliver(game, { what: `${name}'s words ${where}`, needs: threadId ? ['SendMessagesInThreads'] : POST }, async () => {
      const target = await this.sends.channel(threadId ?? game.channelId);
      await target?.send(personaSpeechAsBot(name, text));
    });
  }

  /** Whether discord.js's cache says the bot may manage webhooks in the channel (false when it cannot tell). */
  private mayManageWebhooks(channelId: string): boolean {
    const channel = this.sends.client.channels.cache.get(channelId);
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
    const channel = await this.sends.textChannel(channelId);
    if (!channel) return null;
    const mine = (await channel.fetchWebhooks()).find((h) => h.owner?.id === this.sends.client.user?.id && h.token !== null);
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
}
