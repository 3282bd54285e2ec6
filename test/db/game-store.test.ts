import { randomUUID } from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/open-database.ts';
import {
  createGameStore,
  type GameProjection,
  type GameStore,
  type NewGameRecord,
  type PlayerProjection,
  type StoredEvent,
} from '../../src/db/game-store.ts';
import { describeOn, testBackends, truncateAll } from './test-databases.ts';

const T0 = Date.UTC(2026, 0, 2, 20, 30, 0, 123);

function newGame(overrides: Partial<NewGameRecord> = {}): NewGameRecord {
  return {
    id: randomUUID(),
    guildId: 'guild-1',
    channelId: 'channel-1',
    hostId: 'user-host',
    seed: 42,
    settings: { players: 3, reveal: 'on-death', timers: { dayMs: 300_000 } },
    ...overrides,
  };
}

function player(playerId: string, seat: number, overrides: Partial<PlayerProjection> = {}): PlayerProjection {
  return {
    playerId,
    seat,
    displayName: `Player ${seat}`,
    kind: 'ai',
    userId: null,
    personaId: `persona-${playerId}`,
    role: null,
    alive: true,
    lastWill: null,
    ...overrides,
  };
}

const lobby: GameProjection = {
  phase: 'lobby',
  status: 'lobby',
  day: 0,
  deadline: null,
  players: [player('p1', 1, { kind: 'human', userId: 'user-host', personaId: null }), player('p2', 2), player('p3', 3)],
};

function event(seq: number, type: string, payload: StoredEvent['payload']): StoredEvent {
  return { seq, type, at: T0 + seq * 1000, visibility: { kind: 'public' }, payload };
}

for (const backend of testBackends())
  describeOn(backend, `GameStore on ${backend.name}`, () => {
    let db: Database;
    let store: GameStore;

    beforeAll(async () => {
      db = await backend.open();
      store = createGameStore(db.prisma);
      // Runs after the suite, and only if the database opened.
      return () => db.close();
    });
    beforeEach(async () => {
      await truncateAll(db);
    });

    describe('creating games', () => {
      it('GIVEN a new record WHEN it is created THEN getGame shows an empty lobby at seq 0', async () => {
        const record = newGame();

        expect(await store.createGame(record)).toEqual({ ok: true, value: undefined });

        const game = await store.getGame(record.id);
        expect(game).toMatchObject({ ...record, phase: 'lobby', status: 'lobby', day: 0, deadline: null, lastSeq: 0 });
        expect(game?.players).toEqual([]);
        expect(game?.endedAt).toBeNull();
      });

      it('GIVEN an existing game WHEN the same id is created again THEN it answers exists and keeps the original', async () => {
        const record = newGame();
        await store.createGame(record);

        const again = await store.createGame({ ...record, seed: 7, channelId: 'elsewhere' });

        expect(again).toEqual({ ok: false, error: 'exists' });
        expect(await store.getGame(record.id)).toMatchObject({ seed: 42, channelId: 'channel-1' });
      });

      it('GIVEN no such game WHEN it is fetched THEN the answer is null', async () => {
        expect(await store.getGame('missing')).toBeNull();
      });
    });

    describe('appending events', () => {
      it('GIVEN a game WHEN two batches are appended THEN loadEvents returns every event in seq order, JSON intact', async () => {
        const record = newGame();
        await store.createGame(record);
        const first = [
          event(1, 'player_joined', { playerId: 'p1', name: 'Zoë «the host»' }),
          event(2, 'player_joined', { playerId: 'p2', tags: ['ai', 'celebrity'], rating: -1.5 }),
        ];
        const second = [
          event(3, 'game_started', { roles: { p1: 'town', p2: 'mafia' }, night: false, extra: null }),
          { ...event(4, 'note', null), visibility: ['p2'] },
        ];

        expect(await store.append(record.id, 0, first, lobby)).toEqual({ ok: true, value: undefined });
        expect(await store.append(record.id, 2, second, { ...lobby, status: 'running', phase: 'night' })).toEqual({
          ok: true,
          value: undefined,
        });

        expect(await store.loadEvents(record.id)).toEqual([...first, ...second]);
        expect((await store.getGame(record.id))?.lastSeq).toBe(4);
      });

      it('GIVEN events up to seq 2 WHEN a writer appends from a stale seq 1 THEN it conflicts and writes nothing', async () => {
        const record = newGame();
        await store.createGame(record);
        await store.append(record.id, 0, [event(1, 'a', 1), event(2, 'b', 2)], lobby);

        const stale = await store.append(record.id, 1, [event(2, 'late', 'x')], {
          ...lobby,
          phase: 'day',
          players: [],
        });

        expect(stale).toEqual({ ok: false, error: 'conflict' });
        expect((await store.loadEvents(record.id)).map((e) => e.type)).toEqual(['a', 'b']);
        const game = await store.getGame(record.id);
        expect(game?.phase).toBe('lobby');
        expect(game?.players).toHaveLength(3);
      });

      it('GIVEN two writers racing from the same seq WHEN both append THEN exactly one wins', async () => {
        const record = newGame();
        await store.createGame(record);

        const results = await Promise.all([
          store.append(record.id, 0, [event(1, 'writer-a', 'a')], lobby),
          store.append(record.id, 0, [event(1, 'writer-b', 'b')], lobby),
        ]);

        expect(results.filter((r) => r.ok)).toHaveLength(1);
        expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, error: 'conflict' }]);
        expect(await store.loadEvents(record.id)).toHaveLength(1);
      });

      it('GIVEN many games appending at the same moment (one from a stale seq, one to no game) WHEN they are stored THEN each gets its own answer and every other append lands', async () => {
        const records = Array.from({ length: 12 }, (_, n) => newGame({ channelId: `channel-${n}` }));
        for (const record of records) {
          await store.createGame(record);
          await store.append(record.id, 0, [event(1, 'opened', null)], lobby);
        }
        const [stale, ...rest] = records;

        const results = await Promise.all([
          store.append(stale!.id, 0, [event(1, 'late', 'x')], lobby, lobby),
          store.append('missing', 0, [event(1, 'a', null)], lobby),
          ...rest.map((record, n) => store.append(record.id, 1, [event(2, 'vote', { n })], { ...lobby, phase: 'vote' }, lobby)),
        ]);

        expect(results.slice(0, 2)).toEqual([
          { ok: false, error: 'conflict' },
          { ok: false, error: 'not_found' },
        ]);
        expect(results.slice(2).every((r) => r.ok)).toBe(true);
        expect((await store.loadEvents(stale!.id)).map((e) => e.type)).toEqual(['opened']);
        for (const [n, record] of rest.entries()) {
          expect((await store.loadEvents(record.id)).map((e) => e.payload)).toEqual([null, { n }]);
          expect((await store.getGame(record.id))?.phase).toBe('vote');
        }
      });

      it('GIVEN an append the database refuses among others at the same moment WHEN they are stored THEN only it fails and the others land', async () => {
        const [bad, good] = [newGame(), newGame({ channelId: 'channel-2' })];
        for (const record of [bad, good]) await store.createGame(record);

        const [refused, landed] = await Promise.allSettled([
          // PostgreSQL's jsonb holds no NUL character.
          store.append(bad.id, 0, [event(1, 'speech', { text: 'nul \u0000 here' })], lobby),
          store.append(good.id, 0, [event(1, 'speech', { text: 'fine' })], lobby),
        ]);

        expect(refused.status).toBe('rejected');
        expect(landed).toEqual({ status: 'fulfilled', value: { ok: true, value: undefined } });
        expect(await store.loadEvents(bad.id)).toEqual([]);
        expect((await store.loadEvents(good.id)).map((e) => e.payload)).toEqual([{ text: 'fine' }]);
      });

      it('GIVEN no such game WHEN appending THEN the answer is not_found', async () => {
        expect(await store.append('missing', 0, [event(1, 'a', null)], lobby)).toEqual({
          ok: false,
          error: 'not_found',
        });
      });

      it('GIVEN seqs that skip a number WHEN appending THEN it throws, because that is a caller bug', async () => {
        const record = newGame();
        await store.createGame(record);

        await expect(store.append(record.id, 0, [event(2, 'gap', null)], lobby)).rejects.toThrow(RangeError);
      });
    });

    describe('the projection', () => {
      it('GIVEN a lobby WHEN the game starts THEN phase, status, day, deadline and players are replaced', async () => {
        const record = newGame();
        await store.createGame(record);
        await store.append(record.id, 0, [event(1, 'joined', null)], lobby);
        const deadline = T0 + 300_000;

        await store.append(record.id, 1, [event(2, 'started', null)], {
          phase: 'day',
          status: 'running',
          day: 1,
          deadline,
          players: [
            player('p1', 1, { kind: 'human', userId: 'user-host', personaId: null, role: 'town' }),
            player('p2', 2, { role: 'mafia', alive: false, lastWill: 'It was the butler.' }),
            player('p3', 3, { role: 'doctor', displayName: 'Renamed' }),
          ],
        });

        const game = await store.getGame(record.id);
        expect(game).toMatchObject({ phase: 'day', status: 'running', day: 1, deadline, endedAt: null });
        expect(game?.players).toEqual([
          player('p1', 1, { kind: 'human', userId: 'user-host', personaId: null, role: 'town' }),
          player('p2', 2, { role: 'mafia', alive: false, lastWill: 'It was the butler.' }),
          player('p3', 3, { role: 'doctor', displayName: 'Renamed' }),
        ]);
      });

      it('GIVEN three players in the lobby WHEN one is missing from the next projection THEN that player is deleted', async () => {
        const record = newGame();
        await store.createGame(record);
        await store.append(record.id, 0, [event(1, 'joined', null)], lobby);

        await store.append(record.id, 1, [event(2, 'left', { playerId: 'p2' })], {
          ...lobby,
          players: lobby.players.filter((p) => p.playerId !== 'p2'),
        });

        expect((await store.getGame(record.id))?.players.map((p) => p.playerId)).toEqual(['p1', 'p3']);
        expect(Object.keys(await store.loadMinds(record.id)).sort()).toEqual(['p1', 'p3']);
      });

      it('GIVEN the previous projection WHEN one player dies and one leaves THEN the rows match the new projection and the others keep their minds', async () => {
        const record = newGame();
        await store.createGame(record);
        await store.append(record.id, 0, [event(1, 'joined', null)], lobby);
        const mind = { memory: [{ day: 1, note: 'p1 voted late' }], beliefs: { p1: { mafia: 0.7 } } };
        await store.saveMind(record.id, 'p3', mind);
        const next: GameProjection = {
          ...lobby,
          phase: 'day',
          status: 'running',
          players: [
            player('p1', 1, { kind: 'human', userId: 'user-host', personaId: null }),
            player('p3', 3, { alive: false, lastWill: 'Trust nobody.' }),
          ],
        };

        expect(await store.append(record.id, 1, [event(2, 'died', { playerId: 'p3' })], next, lobby)).toEqual({
          ok: true,
          value: undefined,
        });

        expect((await store.getGame(record.id))?.players).toEqual(next.players);
        expect((await store.loadMinds(record.id)).p3).toEqual(mind);
      });

      it('GIVEN the previous projection WHEN nothing about the players changed THEN the rows stay as they were', async () => {
        const record = newGame();
        await store.createGame(record);
        await store.append(record.id, 0, [event(1, 'joined', null)], lobby);

        await store.append(record.id, 1, [event(2, 'spoke', { text: 'hello' })], lobby, lobby);

        expect((await store.getGame(record.id))?.players).toEqual(lobby.players);
        expect((await store.getGame(record.id))?.lastSeq).toBe(2);
      });

      it('GIVEN a running game WHEN it ends THEN endedAt is stamped and the status is ended', async () => {
        const record = newGame();
        await store.createGame(record);
        const before = Date.now();

        await store.append(record.id, 0, [event(1, 'won', { side: 'town' })], { ...lobby, phase: 'over', status: 'ended' });

        const game = await store.getGame(record.id);
        expect(game?.status).toBe('ended');
        expect(game?.endedAt).toBeGreaterThanOrEqual(before - 5_000);
      });
    });

    describe('AI minds', () => {
      it('GIVEN seated players WHEN a mind is saved THEN loadMinds returns it and defaults for the others', async () => {
        const record = newGame();
        await store.createGame(record);
        await store.append(record.id, 0, [], lobby);
        const mind = { memory: [{ day: 1, note: 'p1 voted late' }], beliefs: { p1: { mafia: 0.7 } } };

        expect(await store.saveMind(record.id, 'p2', mind)).toEqual({ ok: true, value: undefined });

        expect(await store.loadMinds(record.id)).toEqual({
          p1: { memory: [], beliefs: {} },
          p2: mind,
          p3: { memory: [], beliefs: {} },
        });
      });

      it('GIVEN a saved mind WHEN later projections are appended THEN the mind is untouched', async () => {
        const record = newGame();
        await store.createGame(record);
        await store.append(record.id, 0, [], lobby);
        const mind = { memory: ['a'], beliefs: { suspect: 'p3' } };
        await store.saveMind(record.id, 'p2', mind);

        await store.append(record.id, 0, [event(1, 'night', null)], { ...lobby, phase: 'night', status: 'running' });

        expect((await store.loadMinds(record.id)).p2).toEqual(mind);
      });

      it('GIVEN no such player WHEN a mind is saved THEN the answer is not_found', async () => {
        const record = newGame();
        await store.createGame(record);

        expect(await store.saveMind(record.id, 'ghost', { memory: [], beliefs: {} })).toEqual({
          ok: false,
          error: 'not_found',
        });
      });

      it('GIVEN every seat of two games saving its mind at the same moment, one seat twice and one that does not exist WHEN saved THEN each seat holds its last mind and only the missing one is not_found', async () => {
        const records = [newGame(), newGame({ channelId: 'channel-2' })];
        for (const record of records) {
          await store.createGame(record);
          await store.append(record.id, 0, [event(1, 'opened', null)], lobby);
        }

        const results = await Promise.all([
          ...records.flatMap((record) =>
            lobby.players.map((p) => store.saveMind(record.id, p.playerId, { memory: [`${p.playerId} first`], beliefs: {} })),
          ),
          store.saveMind(records[0]!.id, 'p2', { memory: ['p2 second'], beliefs: { p3: { suspicion: 0.5 } } }),
          store.saveMind(records[1]!.id, 'ghost', { memory: [], beliefs: {} }),
        ]);

        expect(results.slice(0, -1).every((r) => r.ok)).toBe(true);
        expect(results.at(-1)).toEqual({ ok: false, error: 'not_found' });
        const minds = await store.loadMinds(records[0]!.id);
        expect(minds['p2']).toEqual({ memory: ['p2 second'], beliefs: { p3: { suspicion: 0.5 } } });
        expect((await store.loadMinds(records[1]!.id))['p3']).toEqual({ memory: ['p3 first'], beliefs: {} });
      });
    });

    describe('finding games', () => {
      it('GIVEN games in several states and channels WHEN looking for an open game THEN only lobby or running ones count, and each status is listed apart', async () => {
        const ended = newGame({ channelId: 'c-ended' });
        const lobbyGame = newGame({ channelId: 'c-lobby' });
        const running = newGame({ channelId: 'c-running' });
        for (const record of [ended, lobbyGame, running]) await store.createGame(record);
        await store.append(ended.id, 0, [], { ...lobby, status: 'ended' });
        await store.append(running.id, 0, [], { ...lobby, status: 'running', phase: 'day' });

        expect(await store.findOpenGameInChannel('c-ended')).toBeNull();
        expect((await store.findOpenGameInChannel('c-lobby'))?.id).toBe(lobbyGame.id);
        expect((await store.findOpenGameInChannel('c-running'))?.id).toBe(running.id);
        expect(await store.findOpenGameInChannel('c-nowhere')).toBeNull();
        expect(await store.listRunningGameIds()).toEqual([running.id]);
        // The lobbies a restarted bot loads, so their idle time runs on.
        expect(await store.listLobbyGameIds()).toEqual([lobbyGame.id]);
      });
    });
  });
