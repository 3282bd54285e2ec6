import { beforeAll, beforeEach, expect, it } from 'vitest';
import { GameRepository } from '../../src/db/game-repository.ts';
import { createGameStore } from '../../src/db/game-store.ts';
import type { Database } from '../../src/db/open-database.ts';
import { createRatingStore, type RatingStore } from '../../src/db/rating-store.ts';
import * as engine from '../../src/game/index.ts';
import type { Change, GameError, GameState, RoleId } from '../../src/game/index.ts';
import { GuildRatings } from '../../src/report/guild-ratings.ts';
import { NEW_RATING, rateGame, type RatedPlacing } from '../../src/report/ratings.ts';
import type { Result } from '../../src/result.ts';
import { describeOn, testBackends, truncateAll } from '../db/test-databases.ts';

const T0 = Date.UTC(2026, 0, 1);
const ALICE = '100000000000000001';
const BOB = '100000000000000002';

function must(result: Result<Change, GameError>): GameState {
  if (!result.ok) throw new Error(result.error.message);
  return result.value.state;
}

/** alice and bob (people) and the persona Ada, with one Mafia among them; the seed decides who. */
function started(id: string, roles: RoleId[] = ['mafia', 'townsperson', 'townsperson']): GameState {
  let state = must(engine.createGame({ gameId: id, seed: 11, settings: { setup: { kind: 'custom', roles } }, at: T0 }));
  state = must(engine.join(state, { player: { id: 's0', name: 'alice', kind: 'human', userId: ALICE }, at: T0 }));
  state = must(engine.join(state, { player: { id: 's1', name: 'bob', kind: 'human', userId: BOB }, at: T0 }));
  state = must(engine.join(state, { player: { id: 's2', name: 'Ada', kind: 'ai', personaId: 'persona-ada' }, at: T0 }));
  return must(engine.start(state, { at: T0 }));
}

/** Night 1: the Mafia kill a townsperson, which leaves one against one: the Mafia win. */
function mafiaWin(id: string): GameState {
  const state = started(id);
  const mafia = state.players.find((p) => p.role === 'mafia')!;
  const victim = state.players.find((p) => p.role === 'townsperson')!;
  return must(engine.act(state, { actorId: mafia.id, targetId: victim.id, at: T0 + 1 }));
}

for (const backend of testBackends('guild_ratings_test')) {
  describeOn(backend, `server ratings on ${backend.name}`, () => {
    let db: Database;
    let repo: GameRepository;
    let store: RatingStore;
    let ratings: GuildRatings;
    beforeAll(async () => {
      db = await backend.open();
      return () => db.close();
    });
    beforeEach(async () => {
      await truncateAll(db);
      repo = new GameRepository(createGameStore(db.prisma));
      store = createRatingStore(db.prisma);
      ratings = new GuildRatings({
        store,
        load: async (id) => {
          const loaded = await repo.load(id);
          return loaded.ok ? loaded.value : null;
        },
        log: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
      });
    });

    const keep = (state: GameState, guildId = 'g1') => repo.create(state, { guildId, channelId: 'c1', hostId: ALICE });

    it('GIVEN two finished games, one called off and one in another server WHEN this server is rated, and rated again THEN the persona is rated on the two finished games once, and the second run changes nothing', async () => {
      const first = mafiaWin('game-1');
      const second = mafiaWin('game-2');
      const cancelled = must(engine.cancel(started('game-3'), { by: ALICE, reason: 'bored', at: T0 + 5 }));
      for (const g of [first, second, cancelled]) expect((await keep(g)).ok).toBe(true);
      expect((await keep(mafiaWin('game-4'), 'g2')).ok).toBe(true);

      expect(await ratings.catchUp('g1')).toBe(2);
      const board = await ratings.board('g1');
      // Nobody opted in: alice and bob play unrated, at a newcomer's rating; only Ada is on the board.
      expect(board.map((r) => [r.kind, r.subjectId, r.name, r.games, r.rank])).toEqual([['persona', 'persona-ada', 'Ada', 2, 1]]);
      const adaWon = first.players.find((p) => p.name === 'Ada')!.role === 'mafia';
      expect(board[0]!.wins).toBe(adaWon ? 2 : 0);
      // The same two updates, done by hand.
      const seatsOf = (g: GameState): RatedPlacing[] =>
        g.players.map((p) => ({
          playerId: p.id,
          side: p.role === 'mafia' ? 'mafia' : 'town',
          place: p.role === 'mafia' ? 1 : 2,
          subject: p.personaId,
        }));
      const once = rateGame(() => undefined, seatsOf(first)).get('persona-ada')!;
      const twice = rateGame(() => once, seatsOf(second)).get('persona-ada')!;
      expect(board[0]!.mu).toBeCloseTo(twice.mu, 10);
      expect(board[0]!.sigma).toBeCloseTo(twice.sigma, 10);

      expect(await ratings.catchUp('g1')).toBe(0);
      expect(await ratings.board('g1')).toEqual(board);
      expect(await store.unratedGames()).toEqual([{ gameId: 'game-4', guildId: 'g2' }]);
      expect(await ratings.catchUp()).toBe(1);
      expect((await ratings.board('g2')).map((r) => r.games)).toEqual([1]);
    });

    it('GIVEN one game WHEN two processes rate it at once THEN only one rating is written', async () => {
      expect((await keep(mafiaWin('game-1'))).ok).toBe(true);
      const [game] = await store.unratedGames('g1');
      const update = () => [{ kind: 'persona' as const, subjectId: 'persona-ada', name: 'Ada', ...NEW_RATING, games: 1, wins: 0 }];
      const results = await Promise.all([store.rateOnce(game!, [], update), store.rateOnce(game!, [], update)]);
      expect(results.sort()).toEqual([false, true]);
      expect((await store.ratings('g1')).map((r) => r.games)).toEqual([1]);
    });

    it('GIVEN alice opted in WHEN her next game is rated THEN she is on the board beside the persona; WHEN she opts out THEN her rating is forgotten and later games leave her out', async () => {
      expect((await keep(mafiaWin('game-1'))).ok).toBe(true);
      await ratings.catchUp('g1');
      await ratings.setOptIn('g1', ALICE, true);
      expect(await ratings.isOptedIn('g1', ALICE)).toBe(true);
      expect(await ratings.isOptedIn('g1', BOB)).toBe(false);
      // Only games rated after opting in count for her.
      expect((await ratings.board('g1')).map((r) => r.kind)).toEqual(['persona']);

      expect((await keep(mafiaWin('game-2'))).ok).toBe(true);
      await ratings.catchUp('g1');
      const board = await ratings.board('g1');
      expect(board.map((r) => [r.kind, r.subjectId, r.games]).sort()).toEqual([
        ['human', ALICE, 1],
        ['persona', 'persona-ada', 2],
      ]);
      expect(board.map((r) => r.rank)).toEqual([1, 2]);

      await ratings.setOptIn('g1', ALICE, false);
      expect(await ratings.isOptedIn('g1', ALICE)).toBe(false);
      expect((await keep(mafiaWin('game-3'))).ok).toBe(true);
      await ratings.catchUp('g1');
      expect((await ratings.board('g1')).map((r) => [r.kind, r.games])).toEqual([['persona', 3]]);
    });
  });
}
