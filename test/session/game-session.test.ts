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

  it('GIVEN a stored vote whose deadline passed while no process ran it WHEN a vote is applied before open THEN nothing resolves until open, which resolves the vote at once with that vote in', async () => {
    const t = TestGame.started([...SEVEN]);
    t.advanceTo('vote');
    const timers = new ManualTimers(t.state.deadline! + 60_000);
    const published: GameEvent[] = [];
    const game = new GameSession(t.state, {
      timers,
      save: () => Promise.resolve(ok(undefined)),
      publish: (events) => published.push(...events),
    });
    const mafia = t.by('mafia').id;
    const voter = t.state.players.find((p) => p.id !== mafia)!.id;
    await game.submit((s, at) => engine.vote(s, { voterId: voter, targetId: mafia, at }));
    timers.advanceTo(timers.now() + 1);
    expect(game.state.phase).toBe('vote');

    game.open();
    await game.settled();
    const resolved = published.find((e) => e.type === 'vote_resolved');
    expect(resolved?.type === 'vote_resolved' && resolved.payload.tally.flatMap((x) => x.voters)).toEqual([voter]);
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

/** A store whose writes wait until the test releases them, one at a time, in order. */
function heldStore() {
  const writes: { events: string[]; release: (answer?: 'ok' | 'conflict' | Error) => void }[] = [];
  const save: SessionDeps['save'] = (_before, events) =>
    new Promise((resolve, reject) => {
      writes.push({
        events: events.map((e) => e.type),
        release: (answer = 'ok') => {
          if (answer instanceof Error) reject(answer);
          else resolve(answer === 'ok' ? ok(undefined) : err(answer));
        },
      });
    });
  return { writes, save };
}

/** Lets the session's pending work (microtasks) run. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('a session answers before it stores', () => {
  const night = () => {
    const t = TestGame.started([...SEVEN]);
    const act = (role: 'doctor' | 'detective', target: string) => (s: GameState, at: number) =>
      engine.act(s, { actorId: t.by(role).id, targetId: t.by(target as 'mafia').id, at });
    return { t, act };
  };

  it('GIVEN a store that holds every write WHEN a command is applied THEN the game shows it at once, and it is published only once the write is released', async () => {
    const { t, act } = night();
    const store = heldStore();
    const { game, published } = session(t.state, { save: store.save });
    const applied = game.apply(act('doctor', 'detective'));
    if (!applied.ok) throw new Error(applied.error.message);
    expect(game.state.night.actions[t.by('doctor').id]?.targetId).toBe(t.by('detective').id);
    expect(game.storedState).toBe(t.state);
    let stored = false;
    void applied.value.stored.then(() => (stored = true));
    await turn();
    expect(store.writes).toHaveLength(1);
    expect(published).toEqual([]);
    expect(stored).toBe(false);

    store.writes[0]!.release();
    expect(await applied.value.stored).toMatchObject({ ok: true });
    expect(published).toEqual(['night_action']);
    expect(game.storedState).toBe(game.state);
  });

  it('GIVEN a write in flight WHEN more commands arrive THEN each is decided on the one before and all of them are stored in the next single write', async () => {
    const { t, act } = night();
    const store = heldStore();
    const { game, published } = session(t.state, { save: store.save });
    const first = game.apply(act('doctor', 'doctor'));
    await turn();
    const second = game.apply(act('doctor', 'detective'));
    const third = game.apply(act('detective', 'mafia'));
    expect([first.ok, second.ok, third.ok]).toEqual([true, true, true]);
    store.writes[0]!.release();
    await turn();
    expect(store.writes.map((w) => w.events)).toEqual([['night_action'], ['night_action', 'night_action']]);
    store.writes[1]!.release();
    await game.settled();
    expect(published).toEqual(['night_action', 'night_action', 'night_action']);
    expect(game.state.night.actions[t.by('doctor').id]?.targetId).toBe(t.by('detective').id);
  });

  it("GIVEN the game's own change and then a person's WHEN they are written THEN only the write that carries the person's is marked awaited (it goes before background writes)", async () => {
    const { t, act } = night();
    const marks: boolean[] = [];
    const store = heldStore();
    const { game } = session(t.state, {
      save: (before, events, after, how) => {
        marks.push(how.awaited);
        return store.save(before, events, after, how);
      },
    });
    game.apply(act('doctor', 'doctor'));
    await turn();
    const person = game.apply(act('detective', 'mafia'), { awaited: true });
    if (!person.ok) throw new Error(person.error.message);
    store.writes[0]!.release();
    await turn();
    store.writes[1]!.release();
    expect(await person.value.stored).toMatchObject({ ok: true });
    expect(marks).toEqual([false, true]);
  });

  it('GIVEN a store that keeps failing WHEN a change and one decided on top of it wait to be stored THEN both are undone, each caller hears it did not count, and nothing is published', async () => {
    const { t, act } = night();
    let attempts = 0;
    const { game, published } = session(t.state, {
      save: () => {
        attempts++;
        return Promise.reject(new Error('connection lost'));
      },
      load: () => Promise.resolve(ok(t.state)),
    });
    const first = game.apply(act('doctor', 'detective'));
    const second = game.apply(act('detective', 'mafia'));
    if (!first.ok || !second.ok) throw new Error('refused');
    expect(await first.value.stored).toMatchObject({ ok: false, error: { code: 'unsaved' } });
    expect(await second.value.stored).toMatchObject({ ok: false, error: { code: 'unsaved' } });
    expect(attempts).toBe(3);
    expect(game.state).toBe(t.state);
    expect(published).toEqual([]);
    // The game goes on from what is stored: the same command is accepted again.
    expect(game.apply(act('doctor', 'detective')).ok).toBe(true);
  });

  it('GIVEN a write that landed though its answer was lost WHEN the store is checked THEN the change stands and is published', async () => {
    const { t, act } = night();
    const { game, published } = session(t.state, {
      save: () => Promise.reject(new Error('the answer was lost')),
      load: () => Promise.resolve(ok(landedState)),
    });
    const applied = game.apply(act('doctor', 'detective'));
    if (!applied.ok) throw new Error(applied.error.message);
    const landedState = applied.value.change.state;
    expect(await applied.value.stored).toMatchObject({ ok: true });
    expect(published).toEqual(['night_action']);
    expect(game.storedState).toBe(landedState);
  });

  it('GIVEN a deadline whose advance could not be stored WHEN the change is undone THEN the deadline is tried again a few seconds later, not at once', async () => {
    const t = TestGame.started([...SEVEN]);
    let attempts = 0;
    const { game, timers } = session(t.state, {
      save: () => {
        attempts++;
        return Promise.reject(new Error('down'));
      },
    });
    timers.advanceTo(t.state.deadline!);
    await game.settled();
    expect(game.state.phase).toBe('night');
    expect(attempts).toBe(3);
    timers.advanceTo(t.state.deadline! + 1000);
    await game.settled();
    expect(attempts).toBe(3);
    timers.advanceTo(t.state.deadline! + 5000);
    await game.settled();
    expect(attempts).toBe(6);
  });
});
