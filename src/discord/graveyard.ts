import {
  ChannelType,
  ThreadAutoArchiveDuration,
  type Client,
  type MessageCreateOptions,
  type PermissionsString,
  type TextChannel,
  type ThreadChannel,
} from 'discord.js';
import type { Timers } from '../clock.ts';
import type { GameEvent, GameEventOf, GameState } from '../game/index.ts';
import type { Logger } from '../log.ts';
import { err, ok, type Result } from '../result.ts';
import { missingPermissions, permissionName, sendProblem, type SendProblem } from './delivery.ts';
import { Pacer } from './pacer.ts';
import { graveyardMessages, graveyardThreadName, openingMessages, reasoningLine } from './presenters/graveyard.ts';

/** What the graveyard needs of a live game (structural, so the output and this file do not import each other). */
export interface GraveyardGame {
  readonly channelId: string;
  readonly hostId: string;
  readonly state: GameState;
}

/** What a private thread the bot fills with people needs: made, written in, people added to a thread they cannot invite to. */
const THREAD_NEEDS: readonly PermissionsString[] = ['CreatePrivateThreads', 'SendMessagesInThreads', 'ManageThreads'];

/** One game's open graveyard. */
interface Place {
  readonly threadId: string;
  /** The last log position whose reasoning the thread has, posted or caught up. */
  postedThrough: number;
  /** The newest state published: what the next post reads from. */
  newest: GameState;
  /** People added by this process (adding is idempotent; this only saves calls). */
  readonly members: Set<string>;
}

/** The reasoning recorded since the thread's last post. */
function unposted(place: Place): GameEventOf<'reasoning'>[] {
  return place.newest.log.slice(place.postedThrough).flatMap((e) => (e.type === 'reasoning' ? [e] : []));
}

/** At most this long between a reasoning and its post, in a phase that lasts (a five-minute day of model seats). */
const REASONING_POST_INTERVAL_MS = 60_000;

/** People whose death opens the graveyard to them: human seats still in the server. */
function deadPeople(state: GameState, playerIds: readonly string[]): string[] {
  return playerIds.flatMap((id) => {
    const p = state.players.find((q) => q.id === id);
    return p?.kind === 'human' && p.userId && p.death?.cause !== 'left' ? [p.userId] : [];
  });
}

/**
 * A game's graveyard: a private thread of its channel, opened at the first human death (or the
 * first spectator), where the dead and the spectators talk and read each AI seat's reasoning as it
 * is recorded. The living are never added; members cannot invite. Each send is on its own: a
 * failed one is logged (what is missing told to the host once) and never stops another or the game.
 */
export class Graveyard<G extends GraveyardGame> {
  /** Open graveyards by game (bound: running games; forgotten at the end). */
  private readonly places = new Map<string, Place>();
  /** One graveyard change at a time per game, so a death and a spectator never open two threads (bound: games with work in flight). */
  private readonly chains = new Map<string, Promise<unknown>>();

  /** Interim posts of reasoning in a long phase, per game. */
  private readonly pacer: Pacer;

  constructor(
    private readonly client: Client,
    private readonly log: Logger,
    timers: Timers,
    /** Tells the game's host once per key (the output's own channel-then-DM telling). */
    private readonly tell: (game: G, key: string, text: string) => Promise<void>,
  ) {
    this.pacer = new Pacer(timers, REASONING_POST_INTERVAL_MS);
  }

  /**
   * A batch of the game's events: the newly dead join (the first opens the thread), and the AI
   * seats' new reasoning is posted at the end of the phase it was made in, as one digest (or
   * within REASONING_POST_INTERVAL_MS in a long phase): a message per move would cost a game about
   * seventeen REST calls, most of Discord's budget for it.
   */
  published(game: G, events: readonly GameEvent[], state: GameState): Promise<void> {
    const open = this.places.get(state.id);
    if (open) open.newest = state;
    return this.locked(state.id, async () => {
      if (state.phase === 'lobby') return;
      const died = deadPeople(
        state,
        events.flatMap((e) => (e.type === 'player_died' ? [e.payload.playerId] : [])),
      );
      let place = this.places.get(state.id) ?? null;
      // A death that ends the game opens nothing: the director's cut follows at once.
      if (!place && died.length > 0 && state.phase !== 'ended') {
        const opened = await this.opened(game, state);
        place = opened.ok ? opened.value : null;
      }
      if (!place) return;
      for (const userId of died) await this.add(game, place, userId);
      if (events.some((e) => e.type === 'phase_started' || e.type === 'game_ended')) await this.post(game, place);
      else if (events.some((e) => e.type === 'reasoning')) this.pacer.later(state.id, () => void this.postLater(game, state.id));
    });
  }

  /** The reasoning published since the last post, as one digest; the pacer's pending post is dropped. */
  private async post(game: G, place: Place): Promise<void> {
    const lines = unposted(place).map((e) => reasoningLine(place.newest, e.payload));
    place.postedThrough = place.newest.log.length;
    this.pacer.ran(place.newest.id);
    if (lines.length > 0) await this.send(game, place, graveyardMessages(lines.join('\n')));
  }

  private postLater(game: G, gameId: string): Promise<void> {
    return this.locked(gameId, async () => {
      const place = this.places.get(gameId);
      if (place) await this.post(game, place);
    });
  }

  /** A spectator or one of the dead (checked by the caller: not a living player) joins; the graveyard opens if it is not yet. */
  spectate(game: G, userId: string): Promise<Result<string, string>> {
    return this.locked(game.state.id, async () => {
      const known = this.places.get(game.state.id);
      const place = known ? ok(known) : await this.opened(game, game.state);
      if (!place.ok) return place;
      // Asked again (they may have left the thread): added again.
      place.value.members.delete(userId);
      if (!(await this.add(game, place.value, userId))) {
        return err('Discord did not let me add you to the graveyard thread. Ask the host to check my **Manage Threads** permission here.');
      }
      return ok(place.value.threadId);
    });
  }

  /** After a restart: the graveyard of a running game, found again by its name (none yet: the first death or spectator opens it). */
  async recover(game: G): Promise<void> {
    const state = game.state;
    if (state.phase === 'lobby' || state.phase === 'ended' || this.places.has(state.id)) return;
    try {
      const channel = await this.textChannel(game.channelId);
      if (!channel) return;
      const active = await channel.threads.fetchActive();
      const thread = active.threads.find((t) => t.parentId === channel.id && t.name === graveyardThreadName(state.id));
      // What was recorded before the restart was posted by the earlier process.
      if (thread) this.places.set(state.id, { threadId: thread.id, postedThrough: state.log.length, newest: state, members: new Set() });
    } catch (error) {
      this.log.warn(`graveyard of ${state.id} not found again: ${String(error)}`);
    }
  }

  /** The game is over: its graveyard is forgotten; its thread's id, for the caller to sweep from discord.js's cache. */
  ended(gameId: string): string | null {
    const place = this.places.get(gameId);
    this.pacer.forget(gameId);
    this.places.delete(gameId);
    return place?.threadId ?? null;
  }

  /** The graveyard thread of a running game, if it is open. */
  threadOf(gameId: string): string | null {
    return this.places.get(gameId)?.threadId ?? null;
  }

  async idle(): Promise<void> {
    await Promise.allSettled([...this.chains.values()]);
  }

  held(): Record<string, number> {
    return { graveyards: this.places.size, graveyardQueues: this.chains.size, graveyardPosts: this.pacer.size };
  }

  private locked<T>(gameId: string, job: () => Promise<T>): Promise<T> {
    const run = (this.chains.get(gameId) ?? Promise.resolve()).then(job);
    const settled: Promise<unknown> = run
      .catch((error: unknown) => this.log.warn(`graveyard of ${gameId}: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        if (this.chains.get(gameId) === settled) this.chains.delete(gameId);
      });
    this.chains.set(gameId, settled);
    return run;
  }

  /** Makes the thread, greets, catches up with the reasoning so far and adds everyone already dead; why not, where it cannot. */
  private async opened(game: G, state: GameState): Promise<Result<Place, string>> {
    let thread: ThreadChannel;
    try {
      thread = await this.create(game, state);
    } catch (error) {
      const problem = sendProblem(error);
      this.log.warn(`${state.id}: the graveyard thread not made: ${error instanceof Error ? error.message : String(error)}`);
      if (problem.kind !== 'forbidden') return err('Discord did not make the graveyard thread just now; try again in a moment.');
      const channel = await this.textChannel(game.channelId).catch(() => null);
      const names = missingPermissions(channel, THREAD_NEEDS)
        .map((p) => `**${permissionName(p)}**`)
        .join(', ');
      await this.tell(
        game,
        'graveyard',
        `⚠️ This game has no graveyard thread (I need ${names} here for a private thread): the dead and spectators cannot watch from one. Nothing else changes.`,
      );
      return err(`This channel has no graveyard: I need ${names} here for a private thread. The host has been told.`);
    }
    const place: Place = { threadId: thread.id, postedThrough: state.log.length, newest: state, members: new Set() };
    this.places.set(state.id, place);
    await this.send(game, place, openingMessages(state));
    const dead = state.players.filter((p) => !p.alive).map((p) => p.id);
    for (const userId of deadPeople(state, dead)) await this.add(game, place, userId);
    return ok(place);
  }

  private async create(game: G, state: GameState): Promise<ThreadChannel> {
    const channel = await this.textChannel(game.channelId);
    if (!channel) throw new Error('the game channel is not a text channel');
    return channel.threads.create({
      name: graveyardThreadName(state.id),
      type: ChannelType.PrivateThread,
      // Only the bot adds people: a member can never bring in a living player.
      invitable: false,
      autoArchiveDuration: ThreadAutoArchiveDuration.OneWeek,
      reason: 'Mafia graveyard: the dead and spectators',
    });
  }

  private async add(game: G, place: Place, userId: string): Promise<boolean> {
    if (place.members.has(userId)) return true;
    const added = await this.attempt(game, place, 'a place in the graveyard thread', async () => {
      await (await this.thread(place.threadId)).members.add(userId);
    });
    if (added) place.members.add(userId);
    return added;
  }

  /** Each message on its own: one that fails never drops the others. */
  private async send(game: G, place: Place, messages: readonly MessageCreateOptions[]): Promise<void> {
    for (const message of messages) {
      await this.attempt(game, place, 'a graveyard message', async () => {
        await (await this.thread(place.threadId)).send(message);
      });
    }
  }

  private async attempt(game: G, place: Place, what: string, run: () => Promise<void>): Promise<boolean> {
    try {
      await run();
      return true;
    } catch (error) {
      this.log.warn(`${game.state.id}: ${what} not sent: ${error instanceof Error ? error.message : String(error)}`);
      await this.handle(game, place, sendProblem(error));
      return false;
    }
  }

  private async handle(game: G, place: Place, problem: SendProblem): Promise<void> {
    // Someone deleted the thread: the next death or spectator opens a new one.
    if (problem.kind === 'channel_gone' && this.places.get(game.state.id) === place) this.places.delete(game.state.id);
    if (problem.kind !== 'forbidden') return;
    const channel = await this.textChannel(game.channelId).catch(() => null);
    const names = missingPermissions(channel, ['SendMessagesInThreads', 'ManageThreads'])
      .map((p) => `**${permissionName(p)}**`)
      .join(', ');
    await this.tell(game, 'graveyard-forbidden', `⚠️ I could not keep the graveyard thread <#${place.threadId}>: I need ${names} here.`);
  }

  private async thread(id: string): Promise<ThreadChannel> {
    const channel = await this.client.channels.fetch(id);
    if (!channel?.isThread()) throw new Error(`channel ${id} is not a thread`);
    return channel;
  }

  private async textChannel(id: string): Promise<TextChannel | null> {
    const channel = await this.client.channels.fetch(id);
    return channel?.type === ChannelType.GuildText ? channel : null;
  }
}
