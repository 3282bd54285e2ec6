import { beforeAll, expect, it } from 'vitest';
import { GameRepository } from '../../src/db/game-repository.ts';
import { createGameStore } from '../../src/db/game-store.ts';
import type { Database } from '../../src/db/open-database.ts';
import { createStatsStore } from '../../src/db/stats-store.ts';
import * as engine from '../../src/game/index.ts';
import type { Change, GameError, GameState, RoleId } from '../../src/game/index.ts';
import type { Result } from '../../src/result.ts';
import { describeOn, testBackends } from './test-databases.ts';

const T0 = Date.UTC(2026, 0, 1);

function must(result: Result<Change, GameError>): GameState {
  if (!result.ok) throw new Error(result.error.message);
  return result.value.state;
}

interface Seat {
  readonly name: string;
  readonly userId?: string;
  readonly personaId?: string;
}

/** A started game (night 1) with exactly these roles dealt among the seats (who gets which is the seed's). */
function started(id: string, seats: readonly Seat[], roles: RoleId[]): GameState {
  let state = must(engine.createGame({ gameId: id, seed: 11, settings: { setup: { kind: 'custom', roles } }, at: T0 }));
  for (const [i, s] of seats.entries()) {
    const player = s.userId
      ? { id: `s${i}`, name: s.name, kind: 'human' as const, userId: s.userId }
      : { id: `s${i}`, name: s.name, kind: 'ai' as const, personaId: s.personaId ?? null };
    state = must(engine.join(state, { player, at: T0 }));
  }
  return must(engine.start(state, { at: T0 }));
}

const byRole = (state: GameState, role: RoleId) => state.players.filter((p) => p.role === role);
const advance = (state: GameState) => must(engine.advance(state, { at: state.deadline ?? T0 }));

/** Night 1: the Mafia kill a townsperson, which leaves one against one: the Mafia win. */
function mafiaWin(id: string, seats: readonly Seat[]): GameState {
  const state = started(id, seats, ['mafia', 'townsperson', 'townsperson']);
  const [mafia] = byRole(state, 'mafia');
  const [victim] = byRole(state, 'townsperson');
  return must(engine.act(state, { actorId: mafia!.id, targetId: victim!.id, at: T0 + 1 }));
}

/** The Mafia hold back on night 1, and the town lynch them on day 1: the Town win. */
function townWin(id: string, seats: readonly Seat[]): GameState {
  let state = started(id, seats, ['mafia', 'townsperson', 'townsperson']);
  const [mafia] = byRole(state, 'mafia');
  state = must(engine.act(state, { actorId: mafia!.id, targetId: null, at: T0 + 1 }));
  while (state.phase !== 'vote') state = advance(state);
  for (const p of byRole(state, 'townsperson'))
    state = must(engine.vote(state, { voterId: p.id, targetId: mafia!.id, at: state.deadline! - 1 }));
  return advance(state);
}

const ALICE = '100000000000000001';
const BOB = '100000000000000002';
const seats = (): Seat[] => [
  { name: 'alice', userId: ALICE },
  { name: 'bob', userId: BOB },
  { name: 'Ada', personaId: 'persona-ada' },
];

for (const backend of testBackends('stats_store_test')) {
  describeOn(backend, `game statistics on ${backend.name}`, () => {
    let db: Database;
    let repo: GameRepository;
    beforeAll(async () => {
      db = await backend.open();
      repo = new GameRepository(createGameStore(db.prisma));
      // Runs after the suite, and only if the database opened.
      return () => db.close();
    });

    const store = (state: GameState, guildId = 'g1') => repo.create(state, { guildId, channelId: 'c1', hostId: ALICE });

    it('GIVEN a Mafia win, a Town win, a game called off and a game in another server WHEN the server and alice are looked up THEN only the two finished games of this server count', async () => {
      const first = mafiaWin('game-1', seats());
      const second = townWin('game-2', seats());
      const cancelled = must(
        engine.cancel(started('game-3', seats(), ['mafia', 'townsperson', 'townsperson']), { by: ALICE, reason: 'bored', at: T0 + 5 }),
      );
      const elsewhere = mafiaWin('game-4', seats());
      for (const g of [first, second, cancelled]) expect((await store(g)).ok).toBe(true);
      expect((await store(elsewhere, 'g2')).ok).toBe(true);
      expect(first.phase).toBe('ended');
      expect(second.phase).toBe('ended');

      const stats = createStatsStore(db.prisma);
      const server = await stats.serverStats('g1');
      expect(server).toMatchObject({ gamesFinished: 2, townWins: 1, mafiaWins: 1, draws: 0 });
      expect(server.averageDays).toBe((first.day + second.day) / 2);
      expect(server.topPersonas).toEqual([{ name: 'Ada', games: 2 }]);

      const alice = await stats.userStats('g1', ALICE);
      const roleIn = (g: GameState) => g.players.find((p) => p.userId === ALICE)!.role!;
      const sideIn = (g: GameState) => engine.getRole(roleIn(g)).faction;
      const wonIn = (g: GameState, winner: 'town' | 'mafia') => sideIn(g) === winner;
      expect(alice.gamesPlayed).toBe(2);
      expect(alice.wins).toBe(Number(wonIn(first, 'mafia')) + Number(wonIn(second, 'town')));
      expect(alice.bySide.town.played + alice.bySide.mafia.played).toBe(2);
      expect(alice.bySide.mafia.won).toBe(Number(wonIn(first, 'mafia')));
      expect(alice.bySide.town.won).toBe(Number(wonIn(second, 'town')));
      expect(alice.roles.reduce((n, r) => n + r.times, 0)).toBe(2);
      expect(alice.survived).toBe([first, second].filter((g) => g.players.find((p) => p.userId === ALICE)!.alive).length);

      // Someone who never played has an empty record, not an error.
      expect(await stats.userStats('g1', '100000000000000009')).toEqual({
        gamesPlayed: 0,
        wins: 0,
        bySide: { town: { played: 0, won: 0 }, mafia: { played: 0, won: 0 }, neutral: { played: 0, won: 0 } },
        roles: [],
        survived: 0,
      });
      expect((await stats.serverStats('g-none')).averageDays).toBeNull();
    });

    it('GIVEN the Mafia win WHEN the Mafia player and a townsperson are looked up THEN the one has a Mafia win, the other a Town loss', async () => {
      const game = mafiaWin('game-5', [
        { name: 'alice', userId: ALICE },
        { name: 'bob', userId: BOB },
        { name: 'carol', userId: '100000000000000003' },
      ]);
      expect((await store(game, 'g3')).ok).toBe(true);
      const stats = createStatsStore(db.prisma);
      const mafia = byRole(game, 'mafia')[0]!;
      const town = byRole(game, 'townsperson').find((p) => p.alive)!;
      expect(await stats.userStats('g3', mafia.userId!)).toMatchObject({
        gamesPlayed: 1,
        wins: 1,
        bySide: { mafia: { played: 1, won: 1 } },
        roles: [{ role: 'mafia', times: 1 }],
        survived: 1,
      });
      expect(await stats.userStats('g3', town.userId!)).toMatchObject({
        gamesPlayed: 1,
        wins: 0,
        bySide: { town: { played: 1, won: 0 } },
        roles: [{ role: 'townsperson', times: 1 }],
        survived: 1,
      });
    });
  });
}
