import { beforeAll, describe, expect, it } from 'vitest';
import type { DecisionRequest } from '../../src/agents/decision.ts';
import { heuristicBrain } from '../../src/agents/heuristic/brain.ts';
import { mindStoreOver } from '../../src/agents/minds.ts';
import { HOUSE_PLAYERS } from '../../src/agents/seats.ts';
import type { AiSeat } from '../../src/agents/ai-seats.ts';
import { ok, type Result } from '../../src/result.ts';
import { playHeadless } from '../../src/session/headless-game.ts';
import { GameRepository } from '../../src/db/game-repository.ts';
import { createGameStore } from '../../src/db/game-store.ts';
import type { Database } from '../../src/db/open-database.ts';
import * as engine from '../../src/game/index.ts';
import { openTestDatabase } from '../support/test-database.ts';

let db: Database;
beforeAll(async () => {
  db = await openTestDatabase('migrated');
  // Runs after the suite, and only if the database opened.
  return () => db.close();
});

function startedGame(gameId: string): engine.GameState {
  let state = (engine.createGame({ gameId, seed: 9, at: 0 }) as Extract<Result<engine.Change, engine.GameError>, { ok: true }>).value.state;
  for (const voice of HOUSE_PLAYERS.slice(0, 7)) {
    const joined = engine.join(state, { player: { id: voice.name.toLowerCase(), name: voice.name, kind: 'ai' }, at: 0 });
    if (joined.ok) state = joined.value.state;
  }
  const started = engine.start(state, { at: 0 });
  if (!started.ok) throw new Error(started.error.message);
  return started.value.state;
}

describe('minds survive a restart', () => {
  it('GIVEN a game whose seats wrote beliefs WHEN the process restarts mid-game THEN each seat’s next decision starts from the beliefs it saved', async () => {
    const store = createGameStore(db.prisma);
    const repo = new GameRepository(store);
    const minds = mindStoreOver(store);
    const start = startedGame('restart');
    await repo.create(start, { guildId: 'g', channelId: 'c', hostId: 'h' });

    // First process: play until day 2 begins, saving every event and every mind.
    const seen: DecisionRequest[] = [];
    const seats = (record: boolean): AiSeat[] =>
      start.players.map((p) => ({
        id: p.id,
        name: p.name,
        brain: (request, rng) => {
          if (record) seen.push(request);
          return heuristicBrain()(request, rng);
        },
      }));
    let saved = start;
    const played = await playHeadless({
      gameId: 'restart',
      seed: 9,
      seats: seats(false),
      from: start,
      minds,
      save: async (before, events, after) => {
        const result = await repo.save(before, events, after);
        if (!result.ok) throw new Error(result.error);
        saved = after;
        return ok(undefined);
      },
    });
    // Let it finish, then restart from the stored log cut at day 2, with the minds as the database holds them.
    expect(played.ok).toBe(true);
    const cut = saved.log.findIndex((e) => e.type === 'phase_started' && e.payload.phase === 'day' && e.payload.day === 2);
    expect(cut).toBeGreaterThan(0);

    const storedMinds = await minds.load('restart');
    expect(Object.keys(storedMinds).sort()).toEqual(start.players.map((p) => p.id).sort());
    expect(Object.values(storedMinds).some((m) => Object.keys(m.beliefs).length > 0)).toBe(true);

    // Second process: the state folded from the stored log up to the cut, minds from the database.
    const loaded = await repo.load('restart');
    if (!loaded.ok) throw new Error('not loaded');
    const resumed = engine.fold(loaded.value.log.slice(0, cut + 1));
    const result = await playHeadless({
      gameId: 'restart',
      seed: 9,
      seats: seats(true),
      from: resumed,
      minds,
      startAt: resumed.log.at(-1)!.at,
    });
    expect(result.ok && result.value.phase).toBe('ended');
    const first = seen[0]!;
    expect(first.beliefs).toEqual(storedMinds[first.view.me.id]!.beliefs);
  });
});
