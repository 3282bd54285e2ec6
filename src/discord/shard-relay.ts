import { BaseInteraction, type Client, type Interaction, type Message } from 'discord.js';
import { z } from 'zod';
import type { GameStore, Json } from '../db/game-store.ts';
import type { ShardInboxItem, ShardInboxKind, ShardOutbox } from '../db/shard-inbox.ts';
import type { Logger } from '../log.ts';
import { NIGHT_SELECT } from './presenters/night-action.ts';
import { NO_MENTIONS } from './presenters/format.ts';
import { replayDispatch, type ReplayableDispatch } from './replay-dispatch.ts';
import { shardOfGuild, type ShardSet } from './shards.ts';

/**
 * Discord answers "This interaction failed" 3 s after an interaction was created. One that waited
 * longer than this in the inbox cannot be acknowledged in time any more (shard 0 spent some of the
 * 3 s already): it is dropped, never applied behind the person's back.
 */
const FORWARDED_INTERACTION_LIMIT_MS = 2_500;
/** A Mafia DM that waited this long (its game's process was down) would land in a later moment: the author is told instead. */
const FORWARDED_MESSAGE_LIMIT_MS = 60_000;

const TOO_LATE = 'Your message did not reach the game in time (the bot was restarting), so your team did not see it. Please send it again.';

const KIND_OF: Record<ReplayableDispatch, ShardInboxKind> = { INTERACTION_CREATE: 'interaction', MESSAGE_CREATE: 'message' };
const DISPATCH_OF: Record<ShardInboxKind, ReplayableDispatch> = { interaction: 'INTERACTION_CREATE', message: 'MESSAGE_CREATE' };

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
  readonly outbox: ShardOutbox;
  readonly log: Logger;
}

/**
 * Routing between shard processes (issue 14). A game belongs to the shard of its guild, but Discord
 * sends every DM to shard 0: there, a DM that belongs to another shard's game (a night menu pick,
 * a Mafia chat by DM) is not handled but handed to its owner through PostgreSQL (`outbox`), raw as
 * it came from the gateway; the owner replays it (`receive`) through discord.js, so the usual
 * handlers answer it. Everything else (slash commands and persona editor chats in DMs, which are
 * stored in the database) is handled where it arrives.
 */
export class ShardRelay {
  /** DM dispatches by id, from the gateway's raw packet to the router's question. */
  private readonly pending = new Map<string, Dispatch>();
  /** Games never move between shards. */
  private readonly ownerOfGame = new Map<string, number | null>();
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

  /** The router's question before it routes: true when this process handles it, false when it went to its owner. */
  readonly admit = async (event: Interaction | Message): Promise<boolean> => {
    if (!this.forwards) return true;
    const raw = this.pending.get(event.id);
    this.pending.delete(event.id);
    if (event.guildId !== null) return true;
    const owner = event instanceof BaseInteraction ? await this.interactionOwner(event) : await this.messageOwner(event);
    if (owner === null || this.deps.shards.ids.includes(owner)) return true;
    // Handling it here would load another shard's game into this process: two writers, two timers.
    if (!raw) throw new Error(`DM ${event.id} belongs to shard ${String(owner)} but its gateway packet was not kept`);
    await this.deps.outbox.send(owner, KIND_OF[raw.t], raw.d);
    this.deps.log.debug(`DM ${raw.t} ${event.id} handed to shard ${String(owner)}`);
    return false;
  };

  /** An item another shard handed over: replayed as if it had arrived here, unless it is too late to help. */
  readonly receive = async (item: ShardInboxItem): Promise<void> => {
    if (item.kind === 'interaction' && item.waitedMs > FORWARDED_INTERACTION_LIMIT_MS) {
      this.deps.log.warn(
        `a forwarded interaction waited ${Math.round(item.waitedMs)} ms for this shard, past Discord's 3 s: dropped, nothing changed (Discord told the person it failed)`,
      );
      return;
    }
    if (item.kind === 'message' && item.waitedMs > FORWARDED_MESSAGE_LIMIT_MS) {
      const author = AuthorOf.safeParse(item.payload);
      this.deps.log.warn(`a forwarded DM waited ${Math.round(item.waitedMs / 1000)} s for this shard: dropped, its author told`);
      if (author.success) {
        await this.deps.client.users
          .send(author.data.author.id, { content: TOO_LATE, allowedMentions: NO_MENTIONS })
          .catch(() => undefined);
      }
      return;
    }
    replayDispatch(this.deps.client, DISPATCH_OF[item.kind], item.payload);
  };

  /** Night menus name their game (`night:<game>:<day>`); other DM components and commands are not a game's. */
  private async interactionOwner(i: Interaction): Promise<number | null> {
    if (!i.isMessageComponent()) return null;
    const [prefix, gameId] = i.customId.split(':');
    if (prefix !== NIGHT_SELECT || !gameId) return null;
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
