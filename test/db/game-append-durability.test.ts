import { afterAll, beforeAll, expect, it } from 'vitest';
import { appendStatement, type AppendRequest } from '../../src/db/game-append-statement.ts';
import { createGameStore } from '../../src/db/game-store.ts';
import type { Database } from '../../src/db/open-database.ts';
import { describeOn, testBackends } from './test-databases.ts';

const T0 = Date.UTC(2026, 0, 2, 20, 30);

function firstEvent(gameId: string): AppendRequest {
  return {
    gameId,
    expectedLastSeq: 0,
    events: [{ seq: 1, type: 'created', at: T0, visibility: { kind: 'public' }, payload: {} }],
    projection: { phase: 'lobby', status: 'lobby', day: 0, deadline: null, players: [] },
  };
}

/** What `synchronous_commit` the append's own transaction commits with, and the session's after it. */
async function commitSetting(db: Database, gameId: string, waitForDisk: boolean): Promise<{ inside: string; after: string }> {
  const inside = await db.prisma.$transaction(async (tx) => {
    await tx.$queryRaw(appendStatement([firstEvent(gameId)], { waitForDisk }));
    const [row] = await tx.$queryRaw<{ synchronous_commit: string }[]>`SHOW synchronous_commit`;
    return row?.synchronous_commit ?? '';
  });
  const [row] = await db.prisma.$queryRaw<{ synchronous_commit: string }[]>`SHOW synchronous_commit`;
  return { inside, after: row?.synchronous_commit ?? '' };
}

for (const backend of testBackends('append_durability'))
  describeOn(backend, `A game append's commit on ${backend.name}`, () => {
    let db: Database | undefined;

    beforeAll(async () => {
      const opened = await backend.open();
      db = opened;
      const store = createGameStore(opened.prisma);
      for (const id of ['memory', 'disk']) await store.createGame({ id, guildId: 'g', channelId: id, hostId: 'h', seed: 1, settings: {} });
    });
    afterAll(() => db?.close());

    it('GIVEN the default WHEN a game appends THEN its own transaction commits without waiting for the disk, and no other transaction is changed', async () => {
      expect(await commitSetting(db!, 'memory', false)).toEqual({ inside: 'off', after: 'on' });
    });

    it('GIVEN GAME_WRITES_WAIT_FOR_DISK WHEN a game appends THEN its commit waits for the disk as every other', async () => {
      expect(await commitSetting(db!, 'disk', true)).toEqual({ inside: 'on', after: 'on' });
    });
  });
