import { randomUUID } from 'node:crypto';
import { beforeAll, beforeEach, expect, it } from 'vitest';
import type { Database } from '../../src/db/open-database.ts';
import { createGameStore, type GameStore } from '../../src/db/game-store.ts';
import { describeOn, testBackends } from './test-databases.ts';

for (const backend of testBackends('game_discord_refs'))
  describeOn(backend, `GameStore Discord refs on ${backend.name}`, () => {
    let db: Database;
    let store: GameStore;
    let gameId: string;

    beforeAll(async () => {
      db = await backend.open();
      store = createGameStore(db.prisma);
      // Runs after the suite, and only if the database opened.
      return () => db.close();
    });
    // Every test has its own game, so nothing needs emptying between them.
    beforeEach(async () => {
      gameId = randomUUID();
      await store.createGame({ id: gameId, guildId: 'g', channelId: 'c', hostId: 'h', seed: 1, settings: {} });
    });

    it('GIVEN a game WHEN its lobby, vote message and Mafia thread are remembered THEN they load back by kind', async () => {
      expect(await store.setDiscordRef(gameId, 'lobby', '111')).toEqual({ ok: true, value: undefined });
      await store.setDiscordRef(gameId, 'vote', '222');
      await store.setDiscordRef(gameId, 'mafia_thread', '333');

      expect(await store.loadDiscordRefs(gameId)).toEqual({ lobby: '111', vote: '222', mafia_thread: '333' });
    });

    it('GIVEN a remembered vote message WHEN the next vote posts a new one THEN the newer id replaces it', async () => {
      await store.setDiscordRef(gameId, 'vote', '222');

      await store.setDiscordRef(gameId, 'vote', '444');

      expect(await store.loadDiscordRefs(gameId)).toEqual({ vote: '444' });
    });

    it('GIVEN a remembered vote message WHEN the vote closes and it is forgotten THEN only the others remain', async () => {
      await store.setDiscordRef(gameId, 'lobby', '111');
      await store.setDiscordRef(gameId, 'vote', '222');

      expect(await store.setDiscordRef(gameId, 'vote', null)).toEqual({ ok: true, value: undefined });

      expect(await store.loadDiscordRefs(gameId)).toEqual({ lobby: '111' });
    });

    it('GIVEN refs of two games WHEN one game is loaded THEN it sees only its own', async () => {
      const other = randomUUID();
      await store.createGame({ id: other, guildId: 'g', channelId: 'c2', hostId: 'h', seed: 1, settings: {} });
      await store.setDiscordRef(gameId, 'lobby', '111');
      await store.setDiscordRef(other, 'lobby', '999');

      expect(await store.loadDiscordRefs(gameId)).toEqual({ lobby: '111' });
      expect(await store.loadDiscordRefs(other)).toEqual({ lobby: '999' });
    });

    it('GIVEN no such game WHEN a ref is set THEN the answer is not_found and nothing is stored', async () => {
      expect(await store.setDiscordRef('missing', 'lobby', '111')).toEqual({ ok: false, error: 'not_found' });
      expect(await store.loadDiscordRefs('missing')).toEqual({});
    });
  });
