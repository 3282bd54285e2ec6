import { beforeAll, describe, expect, it } from 'vitest';
import { playHeadless } from '../../src/session/headless-game.ts';
import { houseSeats } from '../../src/agents/seats.ts';
import { GameRepository, parseStoredEvents } from '../../src/db/game-repository.ts';
import { createGameStore } from '../../src/db/game-store.ts';
import type { Database } from '../../src/db/open-database.ts';
import * as engine from '../../src/game/index.ts';
import { describeOn, testBackends } from './test-databases.ts';
import { stringMatching } from '../support/matchers.ts';
import { T0, TestGame } from '../support/test-game.ts';

async function playedGame(seed: number) {
  const result = await playHeadless({ gameId: `roundtrip-${seed}`, seed, seats: houseSeats(9), startAt: Date.UTC(2026, 0, 1) });
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

/** Replays a finished game's log through the repository one command at a time, as a live bot would save it. */
async function saveCommandByCommand(repo: GameRepository, finished: engine.GameState): Promise<void> {
  const log = finished.log;
  // The lobby part (creation and joins) is stored when the game is made.
  const firstStart = log.findIndex((e) => e.type === 'game_started');
  let state = engine.fold(log.slice(0, firstStart));
  const created = await repo.create(state, { guildId: 'g1', channelId: 'c1', hostId: 'u1' });
  expect(created).toEqual({ ok: true, value: undefined });
  for (let i = firstStart; i < log.length; i += 7) {
    const events = log.slice(i, i + 7);
    const next = engine.fold(events, state);
    const saved = await repo.save(state, events, next);
    expect(saved.ok).toBe(true);
    state = next;
  }
}

for (const backend of testBackends('repository_test')) {
  describeOn(backend, `game log round-trip on ${backend.name}`, () => {
    let db: Database;
    let repo: GameRepository;
    beforeAll(async () => {
      db = await backend.open();
      repo = new GameRepository(createGameStore(db.prisma));
      // Runs after the suite, and only if the database opened.
      return () => db.close();
    });

    it('GIVEN a whole 9-seat game saved command by command WHEN it is loaded THEN it folds back to the identical state', async () => {
      const finished = await playedGame(11);
      await saveCommandByCommand(repo, finished);
      const loaded = await repo.load(finished.id);
      expect(loaded).toEqual({ ok: true, value: finished });
      const row = await createGameStore(db.prisma).getGame(finished.id);
      expect(row).toMatchObject({ status: 'ended', phase: 'ended', lastSeq: finished.log.length });
      expect(row!.players.map((p) => [p.playerId, p.role, p.alive])).toEqual(finished.players.map((p) => [p.id, p.role, p.alive]));
    });

    it('GIVEN a stale writer WHEN it saves after another did THEN it gets a conflict and the log is unchanged', async () => {
      const finished = await playedGame(12);
      const lobby = engine.fold(finished.log.slice(0, 3));
      await repo.create(lobby, { guildId: null, channelId: null, hostId: null });
      const next = engine.fold(finished.log.slice(3, 4), lobby);
      expect((await repo.save(lobby, finished.log.slice(3, 4), next)).ok).toBe(true);
      expect(await repo.save(lobby, finished.log.slice(3, 4), next)).toEqual({ ok: false, error: 'conflict' });
      expect(await repo.load(finished.id)).toEqual({ ok: true, value: next });
    });

    it('GIVEN a stored game WHEN a speech is edited and another deleted THEN the log gains the two events, the stored rows hold no withdrawn word, and the game loads back to the same state', async () => {
      const t = TestGame.started(['mafia', 'detective', 'doctor', 'townsperson', 'townsperson'], {}, 3);
      t.advanceTo('day');
      const [ann, bob] = t.state.players.filter((p) => p.alive);
      const lobby = engine.fold(t.state.log.slice(0, 3));
      expect((await repo.create(lobby, { guildId: null, channelId: null, hostId: null })).ok).toBe(true);
      expect((await repo.save(lobby, t.state.log.slice(3), t.state)).ok).toBe(true);
      const step = async (command: (s: engine.GameState) => ReturnType<typeof engine.speak>) => {
        const before = t.state;
        const events = t.must(command(before));
        expect((await repo.save(before, events, t.state)).ok).toBe(true);
      };
      await step((s) => engine.speak(s, { playerId: ann!.id, channel: 'town', text: 'I am the Detective', ref: 'm1', at: T0 }));
      await step((s) => engine.speak(s, { playerId: bob!.id, channel: 'town', text: 'Ann is lying', ref: 'm2', at: T0 }));
      await step((s) => engine.editSpeech(s, { ref: 'm1', text: 'I am the Doctor', at: T0 }));
      await step((s) => engine.deleteSpeeches(s, { refs: ['m1'], at: T0 }));
      await step((s) => engine.editSpeech(s, { ref: 'm2', text: 'Ann is honest', at: T0 }));

      const rows = await createGameStore(db.prisma).loadEvents(t.state.id);
      for (const withdrawn of ['Detective', 'I am the Doctor', 'Ann is lying']) expect(JSON.stringify(rows)).not.toContain(withdrawn);
      expect(JSON.stringify(rows)).toContain('Ann is honest');
      expect(rows.slice(-3).map((e) => e.type)).toEqual(['speech_edited', 'speech_deleted', 'speech_edited']);
      expect(await repo.load(t.state.id)).toEqual({ ok: true, value: t.state });
    });

    it('GIVEN an unknown game WHEN loaded THEN it is not found', async () => {
      expect(await repo.load('no-such-game')).toEqual({ ok: false, error: 'not_found' });
    });
  });
}

describe('stored events that do not parse', () => {
  it('GIVEN a row whose payload lost a field WHEN parsed THEN the bad event is named instead of guessed at', () => {
    const result = parseStoredEvents([{ seq: 1, type: 'player_died', at: 0, visibility: { kind: 'public' }, payload: { playerId: 'x' } }]);
    expect(result).toMatchObject({ ok: false, error: stringMatching(/^event #1 \(player_died\)/) });
  });
});
