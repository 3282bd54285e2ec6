/**
 * What several processes on one PostgreSQL server rely on (issue 14): the event log's compare-and-set
 * between two clients, the shard inbox handing each item to exactly one taker (an interaction with how
 * it was acknowledged), and start-ups taking turns.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, expect, it } from 'vitest';
import { createGameStore, type GameProjection } from '../../src/db/game-store.ts';
import { openDatabase, splitSchemaParam, type Database } from '../../src/db/open-database.ts';
import { openShardInbox, shardOutbox, type ShardInboxItem } from '../../src/db/shard-inbox.ts';
import { startupLockName, withStartupLock } from '../../src/db/startup-lock.ts';
import { describeSharded, sharedDatabase, until } from './shard-processes.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Two clients of the same database, as two processes hold them. */
async function twoClients(name: string): Promise<{ url: string; first: Database; second: Database }> {
  const { url, db: first } = await sharedDatabase(name);
  cleanups.push(() => first.close());
  const opened = await openDatabase({ database: { kind: 'postgres', url } });
  if (!opened.ok) throw new Error(opened.error);
  const second = opened.value;
  cleanups.push(() => second.close());
  return { url, first, second };
}

describeSharded('one PostgreSQL database shared by several processes', () => {
  it('GIVEN a game seen by two clients at the same seq WHEN both append an event at once THEN exactly one is stored and the other gets a conflict', async () => {
    const { first, second } = await twoClients('shared_event_log');
    const gameId = randomUUID();
    const one = createGameStore(first.prisma);
    const two = createGameStore(second.prisma);
    expect(await one.createGame({ id: gameId, guildId: 'g', channelId: 'c', hostId: 'h', seed: 1, settings: {} })).toEqual({
      ok: true,
      value: undefined,
    });
    const projection: GameProjection = { phase: 'lobby', status: 'lobby', day: 0, deadline: null, players: [] };
    const write = (store: typeof one, who: string) =>
      store.append(gameId, 0, [{ seq: 1, type: 'speech', at: 0, visibility: { kind: 'public' }, payload: { who } }], projection);

    const results = await Promise.all([write(one, 'first'), write(two, 'second')]);

    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, error: 'conflict' }]);
    const events = await one.loadEvents(gameId);
    expect(events).toHaveLength(1);
    expect((await first.prisma.game.findUniqueOrThrow({ where: { id: gameId } })).lastSeq).toBe(1);
  });

  it("GIVEN two listeners for shard 1 (a restarted process overlapping the old one) WHEN shard 0's process sends items THEN each item is handled exactly once, in the order sent, and none reaches shard 2", async () => {
    const { url, first } = await twoClients('shared_inbox');
    const taken: { by: string; item: ShardInboxItem }[] = [];
    const listen = async (by: string, shards: number[]) => {
      const inbox = await openShardInbox({
        url,
        shards,
        onItem: (item) => Promise.resolve(void taken.push({ by, item })),
        onError: (error) => {
          throw error;
        },
      });
      cleanups.push(() => inbox.close());
    };
    await listen('old', [1]);
    await listen('new', [1]);
    await listen('other', [2]);
    const outbox = shardOutbox(first.prisma);

    for (let n = 1; n <= 20; n++) await outbox.send(1, { kind: 'message', payload: { n } });

    await until(() => taken.length >= 20, 'the notifications were taken');
    const numbers = (by?: string) => taken.filter((t) => by === undefined || t.by === by).map((t) => (t.item.payload as { n: number }).n);
    expect(numbers().toSorted((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    for (const by of ['old', 'new']) expect(numbers(by)).toEqual(numbers(by).toSorted((a, b) => a - b));
    expect(taken.every((t) => t.by !== 'other' && t.item.kind === 'message' && t.item.waitedMs >= 0)).toBe(true);
    expect(await first.prisma.shardInbox.count()).toBe(0);
  });

  it("GIVEN an interaction shard 0 acknowledged WHEN it hands it to shard 1 through the inbox THEN shard 1's item says how it was acknowledged, and a Mafia DM's says nothing", async () => {
    const { url, first } = await twoClients('shared_inbox_ack');
    const taken: ShardInboxItem[] = [];
    const inbox = await openShardInbox({
      url,
      shards: [1],
      onItem: (item) => Promise.resolve(void taken.push(item)),
      onError: (error) => {
        throw error;
      },
    });
    cleanups.push(() => inbox.close());
    const outbox = shardOutbox(first.prisma);

    await outbox.send(1, { kind: 'interaction', payload: { id: 'pick' }, acknowledged: 'deferred' });
    await outbox.send(1, { kind: 'message', payload: { id: 'chat' } });

    await until(() => taken.length >= 2, 'both items were taken');
    expect(taken.map((item) => [item.kind, item.payload, item.acknowledged])).toEqual([
      ['interaction', { id: 'pick' }, 'deferred'],
      ['message', { id: 'chat' }, null],
    ]);
  });

  it('GIVEN two processes starting at once WHEN each runs its start-up under the startup lock THEN one waits for the other', async () => {
    const { url, first } = await twoClients('shared_startup');
    const target = { kind: 'postgres', url } as const;
    const steps: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));

    const a = withStartupLock(target, async () => {
      steps.push('a in');
      await held;
      steps.push('a out');
    });
    await until(() => steps.includes('a in'), 'a holds the lock');
    const b = withStartupLock(target, () => Promise.resolve(void steps.push('b in')));
    const waiting = async () =>
      (
        await first.prisma.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_locks
          WHERE locktype = 'advisory' AND NOT granted AND objid = (hashtext(${startupLockName(splitSchemaParam(url).schema)})::bigint & 4294967295)::oid`
      )[0]?.n ?? 0;
    await until(async () => (await waiting()) === 1, 'b waits for the lock');
    expect(steps).toEqual(['a in']);
    release();
    await Promise.all([a, b]);
    expect(steps).toEqual(['a in', 'a out', 'b in']);
  });
});
