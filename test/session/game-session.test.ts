import { describe, expect, it } from 'vitest';
import { GameSession, type SessionDeps } from '../../src/session/game-session.ts';
import { ManualTimers } from '../../src/clock.ts';
import * as engine from '../../src/game/index.ts';
import type { GameEvent, GameState } from '../../src/game/index.ts';
import { err, ok } from '../../src/result.ts';
import { T0, TestGame } from '../support/test-game.ts';

const SEVEN = ['mafia', 'mafia', 'detective', 'doctor', 'townsperson', 'townsperson', 'townsperson'] as const;

function session(state: GameState, over: Partial<SessionDeps> = {}) {
  const timers = new ManualTimers(T0);
  const saved: GameEvent[][] = [];
  const published: string[] = [];
  const reminders: number[] = [];
  const deps: SessionDeps = {
    timers,
    save: (_before, events) => {
      saved.push([...events]);
      return Promise.resolve(ok(undefined));
    },
    publish: (events) => published.push(...events.map((e) => e.type)),
    remind: (_state, msLeft) => reminders.push(msLeft),
    reminders: [30_000],
    ...over,
  };
  const game = new GameSession(state, deps);
  game.open();
  return { game, timers, saved, published, reminders };
}

describe('a live game session', () => {
  it('GIVEN a running night WHEN its deadline passes THEN the session advances the game by itself, stored before it is published', async () => {
    const t = TestGame.started([...SEVEN]);
    const { game, timers, saved, published } = session(t.state);
    timers.advanceTo(t.state.deadline!);
    await game.submit((s) => ok({ state: s, events: [] }));
    expect(game.state.phase).toBe('dawn');
    expect(saved.flat().map((e) => e.type)).toEqual(published);
    expect(published).toContain('night_resolved');
  });

  it('GIVEN a deadline ahead WHEN the reminder time comes THEN a reminder is sent with the time left, once', () => {
    const t = TestGame.started([...SEVEN]);
    const { timers, reminders } = session(t.state);
    timers.advanceTo(t.state.deadline! - 31_000);
    expect(reminders).toEqual([]);
    timers.advanceTo(t.state.deadline! - 29_000);
    expect(reminders).toEqual([30_000]);
  });

  it('GIVEN many commands at once WHEN submitted together THEN they apply one at a time, in order, each seeing the last', async () => {
    const t = TestGame.started([...SEVEN]);
    t.advanceTo('vote');
    const { game } = session(t.state);
    const voters = t.state.players.filter((p) => p.id !== t.by('mafia').id);
    const results = await Promise.all(
      voters.map((p) => game.submit((s, at) => engine.vote(s, { voterId: p.id, targetId: t.by('mafia').id, at }))),
    );
    expect(results.every((r) => r.ok)).toBe(true);
    expect(Object.keys(game.state.votes)).toHaveLength(voters.length);
  });

  it('GIVEN a refused command WHEN submitted THEN nothing is stored, nothing is published and the error comes back', async () => {
    const t = TestGame.started([...SEVEN]);
    const { game, saved, published } = session(t.state);
    const result = await game.submit((s, at) => engine.vote(s, { voterId: t.by('doctor').id, targetId: t.by('mafia').id, at }));
    expect(result).toMatchObject({ ok: false, error: { code: 'wrong_phase' } });
    expect(saved).toEqual([]);
    expect(published).toEqual([]);
  });

  it('GIVEN the store refuses a write (another writer got there first) WHEN a command runs THEN the state is unchanged and the player is told to retry', async () => {
    const t = TestGame.started([...SEVEN]);
    const { game, published } = session(t.state, { save: () => Promise.resolve(err('conflict' as const)) });
    const result = await game.submit((s, at) => engine.act(s, { actorId: t.by('doctor').id, targetId: t.by('doctor').id, at }));
    expect(result).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(game.state).toBe(t.state);
    expect(published).toEqual([]);
  });

  it('GIVEN a closed session WHEN its old deadline passes or a command arrives THEN nothing happens', async () => {
    const t = TestGame.started([...SEVEN]);
    const { game, timers } = session(t.state);
    game.close();
    timers.advanceTo(t.state.deadline! + 1);
    const result = await game.submit((s, at) => engine.act(s, { actorId: t.by('doctor').id, targetId: null, at }));
    expect(result).toMatchObject({ ok: false, error: { code: 'closed' } });
    expect(game.state.phase).toBe('night');
  });
});
