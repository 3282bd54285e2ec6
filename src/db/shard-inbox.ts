import pg from 'pg';
import { z } from 'zod';
import type { Json } from './game-records.ts';
import type { PrismaClient } from './generated/client.ts';
import { splitSchemaParam } from './open-database.ts';
import { toPrismaJson } from './prisma-json.ts';

const SHARD_INBOX_KINDS = ['interaction', 'message'] as const;
type ShardInboxKind = (typeof SHARD_INBOX_KINDS)[number];

/** A gateway dispatch handed from the shard it arrived on to the shard that owns it. */
export interface ShardInboxItem {
  readonly id: string;
  readonly shard: number;
  readonly kind: ShardInboxKind;
  /** The dispatch's `d`, as Discord sent it. */
  readonly payload: Json;
  /** An interaction's first answer, given by the shard it arrived on (the sender's word for it), which the owner goes on from. */
  readonly acknowledged: string | null;
  /** How long it waited in the inbox, by the database's clock (the same for every machine). */
  readonly waitedMs: number;
}

/** The PostgreSQL channel one shard listens on. */
function shardChannel(shard: number): string {
  return `dramatis_shard_${String(shard)}`;
}

/** What one shard hands another: a dispatch (its `d`), and for an interaction how it was acknowledged where it arrived. */
export type ShardDelivery =
  | { readonly kind: 'message'; readonly payload: Json }
  | { readonly kind: 'interaction'; readonly payload: Json; readonly acknowledged: string };

export interface ShardOutbox {
  send(shard: number, delivery: ShardDelivery): Promise<void>;
}

export function shardOutbox(prisma: PrismaClient): ShardOutbox {
  return {
    async send(shard, delivery) {
      const acknowledged = delivery.kind === 'interaction' ? delivery.acknowledged : null;
      await prisma.$transaction(async (tx) => {
        const row = await tx.shardInbox.create({
          data: { shard, kind: delivery.kind, payload: toPrismaJson(delivery.payload), acknowledged },
          select: { id: true },
        });
        // Delivered at commit, so a listener never looks before the row is there.
        await tx.$executeRaw`SELECT pg_notify(${shardChannel(shard)}, ${row.id.toString()})`;
      });
    },
  };
}

export interface ShardInboxOptions {
  /** A postgres:// URL (a `?schema=` parameter is honoured). */
  readonly url: string;
  /** The shards this process owns. */
  readonly shards: readonly number[];
  /** Called once per item, in the order they were sent; an item is gone from the inbox when it is called. */
  readonly onItem: (item: ShardInboxItem) => Promise<void>;
  readonly onError: (error: unknown) => void;
  /** The safety net: claims this often even without a notification, and reconnects a lost connection (default 5 s). */
  readonly pollMs?: number;
  /** Rows older than this are deleted by whoever polls: nobody could answer them any more (default 15 min, an interaction token's life). */
  readonly keepMs?: number;
}

export interface ShardInbox {
  /** Claims and handles every waiting item now. */
  drain(): Promise<void>;
  close(): Promise<void>;
}

const BATCH = 50;

const ClaimedRow = z.object({
  id: z.string(),
  shard: z.number(),
  kind: z.enum(SHARD_INBOX_KINDS),
  payload: z.json(),
  acknowledged: z.string().nullable(),
  waitedMs: z.number(),
});

/**
 * One dedicated connection LISTENs on this process's shard channels; a notification, the start and
 * a poll every few seconds each claim the waiting rows. A claim deletes the rows it takes (FOR UPDATE
 * SKIP LOCKED), so an item is handled at most once even if two processes claim at the same time.
 */
export async function openShardInbox(options: ShardInboxOptions): Promise<ShardInbox> {
  const { connectionString, schema } = splitSchemaParam(options.url);
  const pollMs = options.pollMs ?? 5_000;
  const keepMs = options.keepMs ?? 15 * 60_000;
  let client: pg.Client | null = null;
  let closed = false;
  let lastCleanup = 0;

  const connect = async (): Promise<pg.Client> => {
    const fresh = new pg.Client({ connectionString });
    fresh.on('error', (error) => {
      options.onError(error);
      if (client === fresh) client = null;
    });
    fresh.on('notification', () => void drain());
    await fresh.connect();
    if (schema) await fresh.query(`SET search_path TO ${fresh.escapeIdentifier(schema)}`);
    for (const shard of options.shards) await fresh.query(`LISTEN ${fresh.escapeIdentifier(shardChannel(shard))}`);
    return fresh;
  };

  const claim = async (db: pg.Client): Promise<ShardInboxItem[]> => {
    const result = await db.query(
      `DELETE FROM "ShardInbox" WHERE id IN (
         SELECT id FROM "ShardInbox" WHERE shard = ANY($1::int[]) ORDER BY id LIMIT ${String(BATCH)} FOR UPDATE SKIP LOCKED
       ) RETURNING id::text AS id, shard, kind, payload, acknowledged,
         (extract(epoch FROM clock_timestamp() - "createdAt") * 1000)::float8 AS "waitedMs"`,
      [options.shards],
    );
    return z
      .array(ClaimedRow)
      .parse(result.rows)
      .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
  };

  let draining: Promise<void> | null = null;
  /** Drains asked for; one asked for while draining makes it look once more. */
  let asked = 0;
  const drain = (): Promise<void> => {
    asked++;
    if (draining) return draining;
    draining = (async () => {
      let seen: number;
      do {
        seen = asked;
        const db = client;
        if (db === null || closed) return;
        let batch: ShardInboxItem[];
        do {
          batch = await claim(db);
          for (const item of batch) await options.onItem(item).catch(options.onError);
        } while (batch.length === BATCH);
      } while (asked !== seen);
    })()
      .catch(options.onError)
      .finally(() => (draining = null));
    return draining;
  };

  const poll = async (): Promise<void> => {
    if (closed) return;
    client ??= await connect();
    if (Date.now() - lastCleanup > 60_000) {
      lastCleanup = Date.now();
      await client.query(`DELETE FROM "ShardInbox" WHERE "createdAt" < clock_timestamp() - make_interval(secs => $1)`, [keepMs / 1000]);
    }
    await drain();
  };

  client = await connect();
  const timer = setInterval(() => void poll().catch(options.onError), pollMs);
  timer.unref();
  await drain();
  return {
    drain,
    async close() {
      closed = true;
      clearInterval(timer);
      await draining;
      await client?.end().catch(() => undefined);
      client = null;
    },
  };
}
