import {
  ChannelType,
  LimitedCollection,
  type BaseMessageOptions,
  type Client,
  type Message,
  type MessageCreateOptions,
  type PermissionsString,
  type SendableChannels,
  type TextChannel,
} from 'discord.js';
import type { GameState } from '../../game/index.ts';
import type { Logger } from '../../log.ts';
import { err, ok, type Result } from '../../result.ts';
import { missingPermissions, permissionName, sendProblem, ToldOnce, type SendProblem } from '../delivery.ts';
import { NO_MENTIONS } from '../presenters/format.ts';

/** What the output needs of a game (kept structural so live-game.ts and the output do not import each other). */
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
export const CHANNELS_KEPT = 1000;

/** What one send is, for the log and for the host: "the vote message", with the permissions it needs. */
export interface Step {
  readonly what: string;
  readonly needs?: readonly PermissionsString[];
}

export const POST: readonly PermissionsString[] = ['ViewChannel', 'SendMessages'];

/**
 * The output's sends and their bookkeeping: a queue per channel (a later batch never overtakes an
 * earlier one), each send on its own (one that fails never drops the others), what still fails
 * told to the host once per game and problem, and channels that are gone left alone.
 */
export class Sends {
  /** Output queued per channel; an entry goes once its queue is empty (bound: channels with output in flight). */
  private readonly chains = new Map<string, Promise<void>>();
  /** Game channels that were deleted or whose server removed the bot: nothing more is posted there (bound: CHANNELS_KEPT). */
  private readonly gone = new LimitedCollection<string, ChannelLoss>({ maxSize: CHANNELS_KEPT });
  /** Problems told to each game's host (bound: running games; forgotten at the end). */
  private readonly told = new ToldOnce();

  constructor(
    readonly client: Client,
    readonly log: Logger,
    /** Told once when a game channel is found gone. */
    private readonly onChannelGone: (channelId: string, loss: ChannelLoss) => void,
  ) {}

  enqueue(key: string, job: () => Promise<void>): void {
    const next: Promise<void> = (this.chains.get(key) ?? Promise.resolve())
      .then(job)
      .catch((error: unknown) => this.log.warn(`posting to ${key} failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        if (this.chains.get(key) === next) this.chains.delete(key);
      });
    this.chains.set(key, next);
  }

  /** Resolves once every queue queued so far has run. */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.chains.values()]);
  }

  /** The game channel was deleted (seen as an event or as Unknown Channel) or the bot removed from its server: stop posting there. */
  channelGone(channelId: string, loss: ChannelLoss = DELETED): void {
    if (this.gone.has(channelId)) return;
    this.gone.set(channelId, loss);
    this.onChannelGone(channelId, loss);
  }

  /** Why the channel can no longer be posted to, if it cannot. */
  lossOf(channelId: string): ChannelLoss | undefined {
    return this.gone.get(channelId);
  }

  /** The game is over: its host's told problems are forgotten. */
  forget(gameId: string): void {
    this.told.forget(gameId);
  }

  /**
   * One send on its own: its failure is logged, told to the host once (what is missing, and
   * where), and never stops the sends after it. A deleted channel ends the game instead.
   */
  async deliver<T>(game: OutputGame, step: Step, send: () => Promise<T>): Promise<Result<T, SendProblem>> {
    if (this.gone.has(game.channelId)) return err({ kind: 'channel_gone' });
    const sent = await this.attempt(game, step.what, send);
    if (!sent.ok) await this.report(game, step, sent.error);
    return sent;
  }

  async report(game: OutputGame, step: Step, problem: SendProblem): Promise<void> {
    // A send that was under way when the channel went (a kick answers 403): the players hear why by DM, nothing else.
    if (this.gone.has(game.channelId)) return;
    switch (problem.kind) {
      case 'channel_gone':
        this.channelGone(game.channelId);
        return;
      case 'forbidden': {
        const missing = missingPermissions(await this.textChannel(game.channelId).catch(() => null), step.needs ?? POST);
        const names = missing.map((p) => `**${permissionName(p)}**`).join(', ');
        await this.tell(
          game,
          `forbidden:${missing.join()}`,
          `⚠️ I could not send ${step.what} in <#${game.channelId}>: I need ${names} there.`,
        );
        return;
      }
      case 'dms_closed':
      case 'not_found':
        return;
      case 'failed':
        await this.tell(game, `failed:${step.what}`, `⚠️ Discord did not take ${step.what} (${problem.detail}); the game goes on.`);
        return;
    }
  }

  /** One send: its failure logged and handed back as a problem for the caller to handle. */
  async attempt<T>(game: OutputGame, what: string, send: () => Promise<T>): Promise<Result<T, SendProblem>> {
    try {
      return ok(await send());
    } catch (error) {
      this.log.warn(`${game.state.id}: ${what} not sent: ${error instanceof Error ? error.message : String(error)}`);
      return err(sendProblem(error));
    }
  }

  /** A DM on its own; closed DMs are told once per person, in the channel. */
  async dm(
    game: OutputGame,
    to: { userId: string; name: string },
    what: string,
    message: MessageCreateOptions,
    keep?: (sent: Message) => void,
  ): Promise<boolean> {
    const sent = await this.attempt(game, `${what} for ${to.name}`, () => this.client.users.send(to.userId, message));
    if (sent.ok) {
      keep?.(sent.value);
      return true;
    }
    if (sent.error.kind === 'dms_closed' || sent.error.kind === 'forbidden') {
      await this.tell(
        game,
        `dm:${to.userId}`,
        `I could not DM **${to.name}** ${what}: allow direct messages from server members (Privacy Settings), then use \`/mafia status\` here.`,
      );
    } else {
      await this.report(game, { what: `${what} (a DM to ${to.name})` }, sent.error);
    }
    return false;
  }

  /** Says something to the host once per game and key: in the channel, else by DM, else only in the log. */
  async tell(game: OutputGame, key: string, text: string): Promise<void> {
    if (!this.told.first(game.state.id, key)) return;
    const message = { content: text, allowedMentions: NO_MENTIONS };
    if (!this.gone.has(game.channelId)) {
      try {
        await this.post(game, message);
        return;
      } catch (error) {
        this.log.warn(`${game.state.id}: could not tell the host in the channel: ${String(error)}`);
      }
    }
    try {
      await this.client.users.send(game.hostId, message);
    } catch (error) {
      this.log.warn(`${game.state.id}: could not tell the host by DM either: ${String(error)}`);
    }
  }

  async channel(id: string): Promise<SendableChannels | null> {
    const channel = await this.client.channels.fetch(id);
    return channel?.isSendable() ? channel : null;
  }

  async post(game: OutputGame, message: BaseMessageOptions): Promise<void> {
    await (await this.channel(game.channelId))?.send(message);
  }

  async textChannel(id: string): Promise<TextChannel | null> {
    const channel = await this.client.channels.fetch(id);
    return channel?.type === ChannelType.GuildText ? channel : null;
  }

  /** How many entries each of its tables holds. */
  held(): { readonly outputQueues: number; readonly goneChannels: number; readonly toldHosts: number } {
    return { outputQueues: this.chains.size, goneChannels: this.gone.size, toldHosts: this.told.size };
  }
}
