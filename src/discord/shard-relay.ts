import { BaseInteraction, type Client, type Interaction, type Message, type RepliableInteraction } from 'discord.js';
import { z } from 'zod';
import type { GameStore, Json } from '../db/game-store.ts';
import type { ShardInboxItem, ShardOutbox } from '../db/shard-inbox.ts';
import type { Logger } from '../log.ts';
import { err, ok, type Result } from '../result.ts';
import { nightMenuGame } from './presenters/night-action.ts';
import { NO_MENTIONS } from './presenters/format.ts';
import { replayDispatch, type ReplayableDispatch } from './replay-dispatch.ts';
import { ACKNOWLEDGEMENTS, responderAfter, type Acknowledgement } from './responder.ts';
import { shardOfGuild, type ShardSet } from './shards.ts';

/**
 * An interaction's token opens its webhook (edits, follow-ups) for 15 minutes after Discord created
 * it. One handed over later than this (its owner was down) could not be answered any more: it is
 * dropped, never applied behind the person's back. The margin covers the time before it was handed
 * over (under 3 s: it was acknowledged by then) and the answer itself.
 */
const FORWARDED_INTERACTION_LIMIT_MS = 14 * 60_000;
/** A Mafia DM that waited this long (its game's process was down) would land in a later moment: the author is told instead. */
const FORWARDED_MESSAGE_LIMIT_MS = 60_000;

const TOO_LATE = 'Your message did not reach the game in time (the bot was restarting), so your team did not see it. Please send it again.';

const Acknowledged = z.enum(ACKNOWLEDGEMENTS);

/** Every gateway dispatch passes here, so only the type is read before a DM is recognised. */
const Packet = z.looseObject({ t: z.unknown(), d: z.unknown() });
interface Dispatch {
  readonly t: ReplayableDispatch;
  readonly d: Json;
}
/** What decides whether a dispatch may be another shard's: a DM (no guild) from a person. */
const DispatchHead = z.looseObject({
  id: z.string(),
  guild_id: z.string().optional(),
  author: z.looseObject({ bot: z.boolean().optional() }).optional(),
});

const AuthorOf = z.looseObject({ author: z.looseObject({ id: z.string() }) });

/** Games whose shard is remembered; past this many the memory starts afresh (a long-running shard 0 sees many games). */
const OWNER_CACHE_LIMIT = 10_000;
/** DM dispatches seen but not routed yet are few; past this many the oldest are forgotten (a leak guard). */
const PENDING_LIMIT = 1_000;

export interface ShardRelayDeps {
  readonly client: Client;
  readonly shards: ShardSet;
  readonly games: Pick<GameStore, 'getGame' | 'mafiaDmChatsOf'>;
  /** Whether this process holds the game in memory (then it is this process's, and nothing need be looked up). */
  readonly liveHere: (gameId: string) => boolean;
  /** Acknowledges an interaction now as its handler would (the router's `acknowledge`), saying what Discord then holds. */
  readonly acknowledge: (i: RepliableInteraction) => Promise<Acknowledgement | null>;
  readonly outbox: ShardOutbox;
  readonly log: Logger;
}

/**
 * Routing between shard processes (issue 14). A game belongs to the shard of its guild, but Discord
 * sends every DM to shard 0: there, a DM that belongs to another shard's game (a night menu pick,
 * a Mafia chat by DM) is not handled but handed to its owner through PostgreSQL (`outbox`), raw as
 * it came from the gateway; the owner replays it (`receive`) through discord.js, so the usual
 * handlers answer it. An interaction is acknowledged by shard 0 first, at once, as its handler
 * would (issue 29): Discord's 3 s never wait on the hand-over, and the owner finishes the answer
 * through the interaction's webhook, which works from any process. Everything else (slash commands
 * and persona editor chats in DMs, which are stored in the database) is handled where it arrives.
 */
export class ShardRelay {
  /** DM dispatches by id, from the gateway's raw packet to the router's question. */
  private readonly pending = new Map<string, Dispatch>();
  /** Games never move between shards. */
  private readonly ownerOfGame = new Map<string, number | null>();
  /** The interaction being replayed here (`receive`), with how shard 0 acknowledged it, until the router asks about it. */
  private readonly replaying = new Map<string, Acknowledgement>();
  /** Only the process holding shard 0 gets DMs, and only with several shards are there others to hand them to. */
  readonly forwards: boolean;

  constructor(private readonly deps: ShardRelayDeps) {
    this.forwards = deps.shards.count > 1 && deps.shards.ids.includes(0);
  }

  /** A raw gateway packet (the router hands them over where the relay forwards): a DM dispatch is kept until the router asks about it. */
  keep(packet: unknown): void {
    const parsed = Packet.safeParse(packet);
    if (!parsed.success || (parsed.data.t !== 'INTERACTION_CREATE' && parsed.data.t !== 'MESSAGE_CREATE')) return;
    const head = DispatchHead.safeParse(parsed.data.d);
    if (!head.success || head.data.guild_id !== undefined || head.data.author?.bot === true) return;
    const d = z.json().safeParse(parsed.data.d);
    if (d.success) this.pending.set(head.data.id, { t: parsed.data.t, d: d.data });
    if (this.pending.size > PENDING_LIMIT) this.pending.delete(this.pending.keys().next().value ?? '');
  }

  /** The router's question before it routes: true when this process handles it, false when it went to its owner (or could not be acknowledged). */
  readonly admit = async (event: Interaction | Message): Promise<boolean> => {
    // Read before anything here waits: `receiveInteraction`'s replay asks synchronously, and forgets it after.
    const replayed = this.replaying.get(event.id);
    if (replayed && event instanceof BaseInteraction && event.isRepliable()) {
      responderAfter(event, replayed);
      return true;
    }
    if (!this.forwards) return true;
    const raw = this.pending.get(event.id);
    this.pending.delete(event.id);
    if (event.guildId !== null) return true;
    if (event instanceof BaseInteraction) return this.admitInteraction(event, raw);
    const owner = await this.messageOwner(event);
    if (owner === null || this.deps.shards.ids.includes(owner)) return true;
    await this.deps.outbox.send(owner, { kind: 'message', payload: this.rawOf(event.id, raw, owner).d });
    this.deps.log.debug(`DM message ${event.id} handed to shard ${String(owner)}`);
    return false;
  };

  /**
   * A night pick by DM of a game this process does not hold may be another shard's: it is
   * acknowledged at once, while its owner is looked up (the database may be slow), and handed over
   * only once acknowledged. One whose acknowledgement failed (it came too late for Discord) is not
   * handled anywhere: nothing changes behind the person's back.
   */
  private async admitInteraction(i: Interaction, raw: Dispatch | undefined): Promise<boolean> {
    const gameId = i.isMessageComponent() ? nightMenuGame(i.customId) : null;
    if (gameId === null || !i.isRepliable() || this.deps.liveHere(gameId)) return true;
    const acknowledged = this.deps.acknowledge(i).then(
      (ack): Result<Acknowledgement | null, unknown> => ok(ack),
      (error: unknown) => err(error),
    );
    const owner = await this.gameOwner(gameId);
    const ack = await acknowledged;
    if (!ack.ok) {
      this.deps.log.warn(
        `DM interaction ${i.id} could not be acknowledged (${ack.error instanceof Error ? ack.error.message : String(ack.error)}): not handled, nothing changed`,
      );
      return false;
    }
    // This process's game after all (not loaded yet): its handler goes on from the acknowledgement.
    if (owner === null || this.deps.shards.ids.includes(owner)) return true;
    if (ack.value === null)
      throw new Error(`DM interaction ${i.id} belongs to shard ${String(owner)} but its handler acknowledges nothing ahead`);
    await this.deps.outbox.send(owner, { kind: 'interaction', payload: this.rawOf(i.id, raw, owner).d, acknowledged: ack.value });
    this.deps.log.debug(`DM interaction ${i.id} acknowledged (${ack.value}) and handed to shard ${String(owner)}`);
    return false;
  }

  /** Handling another shard's DM here would load its game into this process: two writers, two timers. */
  private rawOf(id: string, raw: Dispatch | undefined, owner: number): Dispatch {
    if (!raw) throw new Error(`DM ${id} belongs to shard ${String(owner)} but its gateway packet was not kept`);
    return raw;
  }

  /** An item another shard handed over: replayed as if it had arrived here, unless it is too late to help. */
  readonly receive = async (item: ShardInboxItem): Promise<void> => {
    if (item.kind === 'interaction') {
      this.receiveInteraction(item);
      return;
    }
    if (item.waitedMs > FORWARDED_MESSAGE_LIMIT_MS) {
      const author = AuthorOf.safeParse(item.payload);
      this.deps.log.warn(`a forwarded DM waited ${Math.round(item.waitedMs / 1000)} s for this shard: dropped, its author told`);
      if (author.success) {
        await this.deps.client.users
          .send(author.data.author.id, { content: TOO_LATE, allowedMentions: NO_MENTIONS })
          .catch(() => undefined);
      }
      return;
    }
    replayDispatch(this.deps.client, 'MESSAGE_CREATE', item.payload);
  };

  /** Shard 0 acknowledged it: its handler here answers through the interaction's webhook, however long it waited, within the token's life. */
  private receiveInteraction(item: ShardInboxItem): void {
    const acknowledged = Acknowledged.safeParse(item.acknowledged);
    const head = DispatchHead.safeParse(item.payload);
    if (!acknowledged.success || !head.success) {
      this.deps.log.warn(`a forwarded interaction came unacknowledged (${String(item.acknowledged)}): dropped, nothing changed`);
      return;
    }
    if (item.waitedMs > FORWARDED_INTERACTION_LIMIT_MS) {
      this.deps.log.warn(
        `a forwarded interaction waited ${Math.round(item.waitedMs / 60_000)} min for this shard, too near its token's 15 minutes to answer: dropped, nothing changed`,
      );
      return;
    }
    this.replaying.set(head.data.id, acknowledged.data);
    try {
      replayDispatch(this.deps.client, 'INTERACTION_CREATE', item.payload);
    } finally {
      this.replaying.delete(head.data.id);
    }
  }

  /** The shard of a game's guild (null: no such game, or none of a guild). */
  private async gameOwner(gameId: string): Promise<number | null> {
    const known = this.ownerOfGame.get(gameId);
    if (known !== undefined) return known;
    const game = await this.deps.games.getGame(gameId);
    const owner = game?.guildId ? shardOfGuild(game.guildId, this.deps.shards.count) : null;
    if (this.ownerOfGame.size >= OWNER_CACHE_LIMIT) this.ownerOfGame.clear();
    this.ownerOfGame.set(gameId, owner);
    return owner;
  }

  /** A living Mafia's DM is their team's chat when their game has no Mafia thread; a game of this process keeps it here. */
  private async messageOwner(m: Message): Promise<number | null> {
    if (m.author.bot) return null;
    const owners = (await this.deps.games.mafiaDmChatsOf(m.author.id)).map((g) =>
      g.guildId ? shardOfGuild(g.guildId, this.deps.shards.count) : 0,
    );
    if (owners.some((shard) => this.deps.shards.ids.includes(shard))) return null;
    return owners[0] ?? null;
  }
}
