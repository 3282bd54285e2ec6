import { describe, expect, it } from 'vitest';
import type { AsyncBrain, DecisionKind } from '../../../src/agents/decision.ts';
import { directorsCut } from '../../../src/agents/directors-cut.ts';
import { AiDriver } from '../../../src/agents/driver/ai-driver.ts';
import { heuristicBrain } from '../../../src/agents/heuristic/brain.ts';
import { pause } from '../../../src/llm/retrying-provider.ts';
import { AiSeats, type AiSeat } from '../../../src/agents/ai-seats.ts';
import { HOUSE_PLAYERS, houseSeats } from '../../../src/agents/seats.ts';
import { ManualTimers } from '../../../src/clock.ts';
import * as engine from '../../../src/game/index.ts';
import type { GameState } from '../../../src/game/index.ts';
import { ok, type Result } from '../../../src/result.ts';
import { GameSession } from '../../../src/session/game-session.ts';
import { createHeadless, playHeadless } from '../../../src/session/headless-game.ts';
import { T0 } from '../../support/test-game.ts';

/** A started game where the first `ai` of `seats` players are AI (house voices) and the rest people. */
function live(seats: number, ai: number) {
  const timers = new ManualTimers(T0);
  let state = (engine.createGame({ gameId: 'live', seed: 21, at: T0 }) as Extract<Result<engine.Change, engine.GameError>, { ok: true }>)
    .value.state;
  HOUSE_PLAYERS.slice(0, seats).forEach((v, i) => {
    const joined = engine.join(state, { player: { id: `p${i}`, name: v.name, kind: i < ai ? 'ai' : 'human' }, at: T0 });
    if (joined.ok) state = joined.value.state;
  });
  const started = engine.start(state, { at: T0 });
  if (!started.ok) throw new Error(started.error.message);
  const aiSeats = new AiSeats(HOUSE_PLAYERS.slice(0, ai).map((v, i) => ({ id: `p${i}`, name: v.name, brain: heuristicBrain(v) })));
  const session = new GameSession(started.value.state, {
    timers,
    save: () => Promise.resolve(ok(undefined)),
    // Events are published from session.open() on, once the driver exists.
    publish: (events) => driver.onEvents(events),
  });
  const driver = new AiDriver(session, aiSeats, { clock: timers, speechGapMs: 0 });
  session.open();
  void driver.resume();
  /** Lets the AI finish what it is doing, then lets the clock reach the deadline. */
  const step = async () => {
    await driver.idle();
    await session.settled();
    if (session.state.deadline !== null) timers.advanceTo(session.state.deadline);
    await session.settled();
  };
  return { session, driver, step, timers };
}

async function playOut(step: () => Promise<void>, state: () => GameState): Promise<void> {
  for (let i = 0; i < 200 && state().phase !== 'ended'; i++) await step();
}

/** Seats of house voices: the offline brain, except where `brains` gives one (by seat index). */
function seatsOf(count: number, brains: Record<number, AsyncBrain> = {}): AiSeat[] {
  return HOUSE_PLAYERS.slice(0, count).map((voice, i) => ({
    id: `s${i}`,
    name: voice.name,
    brain: brains[i] ?? heuristicBrain(voice),
    offline: heuristicBrain(voice),
  }));
}

/** A model that never answers and ignores every abort: only the driver's deadline saves the move. */
const silent: AsyncBrain = () => new Promise(() => undefined);

/** A brain that answers as the offline brain would, after `ms` on the game's clock. */
function slow(clock: ManualTimers, ms: number, asked: DecisionKind[] = []): AsyncBrain {
  const brain = heuristicBrain();
  return async (request, rng) => {
    asked.push(request.kind);
    await pause(clock, ms, request.signal);
    return brain(request, rng);
  };
}

describe('the AI driver', () => {
  it('GIVEN seven AI seats and a real-time session WHEN deadlines come and go THEN the AI act in every phase and the game ends', async () => {
    const { session, step } = live(7, 7);
    await playOut(step, () => session.state);
    expect(session.state.phase).toBe('ended');
    const log = session.state.log;
    expect(log.some((e) => e.type === 'mafia_proposal')).toBe(true);
    expect(log.some((e) => e.type === 'speech' && e.payload.channel === 'town')).toBe(true);
    expect(log.some((e) => e.type === 'vote_cast')).toBe(true);
    expect(log.some((e) => e.type === 'reasoning' && e.payload.outcome === 'counted')).toBe(true);
  });

  it('GIVEN people at the table WHEN a person names an AI in the day THEN that AI answers next, and the game still ends with the people idle', async () => {
    const { session, driver, step } = live(7, 4);
    for (let i = 0; i < 10 && session.state.phase !== 'day'; i++) await step();
    await driver.idle();
    const human = session.state.players.find((p) => p.kind === 'human' && p.alive)!;
    const townSpeeches = (id: string) =>
      session.state.log.filter((e) => e.type === 'speech' && e.payload.channel === 'town' && e.payload.playerId === id).length;
    const named = session.state.players.find((p) => p.kind === 'ai' && p.alive && townSpeeches(p.id) < 2)!;
    const before = session.state.log.length;
    await session.submit((s, at) => engine.speak(s, { playerId: human.id, channel: 'town', text: `${named.name}, why so quiet?`, at }));
    await driver.idle();
    const next = session.state.log.slice(before).find((e) => e.type === 'speech' && e.payload.playerId !== human.id);
    expect(next?.type === 'speech' && next.payload.playerId).toBe(named.id);
    await playOut(step, () => session.state);
    expect(session.state.phase).toBe('ended');
  });

  it('GIVEN one seat whose model never answers WHEN a vote is held THEN the other seats vote at once, its offline vote is in before the deadline, the table is told once and the director’s cut says why', async () => {
    const clock = new ManualTimers(T0);
    const game = createHeadless({ gameId: 'stuck', seed: 5, seats: seatsOf(7, { 2: silent }), clock, time: 'virtual' });
    if (!game.ok) throw new Error(game.error);
    const result = await game.value.run();
    if (!result.ok) throw new Error(result.error);
    const state = result.value;
    const stuck = state.players[2]!;
    const votes = state.log.filter((e) => e.type === 'vote_cast');
    const resolved = state.log.filter((e) => e.type === 'vote_resolved');
    expect(resolved.length).toBeGreaterThan(0);
    for (const tally of resolved) {
      const day = tally.payload.day;
      const start = state.log.find((e) => e.type === 'phase_started' && e.payload.phase === 'vote' && e.payload.day === day)!;
      const deadline = start.type === 'phase_started' ? start.payload.deadline! : 0;
      const mine = votes.find((e) => e.seq > start.seq && e.seq < tally.seq && e.payload.voterId === stuck.id);
      if (!mine) continue; // dead by then
      // Every other AI vote came first, at the vote's start; the stuck seat's offline vote before the deadline.
      expect(mine.at).toBeLessThan(deadline);
      const others = votes.filter((e) => e.seq > start.seq && e.seq < tally.seq && e.payload.voterId !== stuck.id);
      for (const v of others) expect(v.at).toBe(start.at);
    }
    const notices = state.log.filter((e) => e.type === 'notice' && e.payload.topic === `fallback:${stuck.id}`);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.type === 'notice' && notices[0]!.payload.text).toBe(
      `${stuck.name}'s model is not answering; ${stuck.name} plays on instinct for now.`,
    );
    expect(directorsCut(state).join('\n')).toContain('(offline fallback: timeout)');
  });

  it('GIVEN one seat on a slow model and six on the offline brain WHEN they play THEN only the model seat is ever said to be thinking (a typing indicator): the offline brain composes nothing over time', async () => {
    const clock = new ManualTimers(T0);
    const thinking = new Set<string>();
    const game = createHeadless({
      gameId: 'typing',
      seed: 8,
      seats: seatsOf(7, { 0: slow(clock, 1_000) }).map((seat, i) => (i === 0 || !seat.offline ? seat : { ...seat, brain: seat.offline })),
      clock,
      time: 'virtual',
      driver: {
        thinking: (playerId, busy) => {
          if (busy) thinking.add(playerId);
        },
      },
    });
    if (!game.ok) throw new Error(game.error);
    const ended = await game.value.run();
    expect(ended.ok && ended.value.phase).toBe('ended');
    expect([...thinking]).toEqual(['s0']);
  });

  it('GIVEN a model that thinks 20 seconds WHEN the host ends the game mid-thought THEN all AI work stops at once and nothing more is asked or said', async () => {
    const clock = new ManualTimers(T0);
    const asked: DecisionKind[] = [];
    const game = createHeadless({
      gameId: 'ended',
      seed: 8,
      seats: seatsOf(7, Object.fromEntries([0, 1, 2, 3, 4, 5, 6].map((i) => [i, slow(clock, 20_000, asked)]))),
      clock,
      time: 'virtual',
    });
    if (!game.ok) throw new Error(game.error);
    const { session, driver } = game.value;
    session.open();
    void driver.resume();
    await session.settled();
    expect(driver.pending).toBeGreaterThan(0);
    const before = asked.length;
    await session.submit((s, at) => engine.cancel(s, { by: 'host', reason: 'called off', at }));
    expect(session.state.phase).toBe('ended');
    // The thinking seats were let go without the clock moving: their 20 seconds never had to pass.
    await driver.idle();
    expect(driver.pending).toBe(0);
    const length = session.state.log.length;
    clock.advanceTo(T0 + 3_600_000);
    await driver.idle();
    await session.settled();
    expect(asked.length).toBe(before);
    expect(session.state.log.length).toBe(length);
  });

  it('GIVEN AI seats lynched in ten seeded games, each played both ways WHEN their last words come THEN each of them speaks them, on the manual clock and in virtual time alike', async () => {
    let heard = 0;
    for (let seed = 1; seed <= 10; seed++) {
      for (const time of ['when-idle', 'virtual'] as const) {
        const result = await playHeadless({
          gameId: `last-${seed}`,
          seed,
          seats: houseSeats(7, heuristicBrain),
          settings: { rules: {} },
          time,
        });
        if (!result.ok) throw new Error(result.error);
        // Each last-words phase follows the lynch of the seat that speaks in it.
        const log = result.value.log;
        const openings = log.filter((e) => e.type === 'phase_started' && e.payload.phase === 'last_words');
        const speakers = log.flatMap((e) => (e.type === 'speech' && e.payload.channel === 'last_words' ? [e.payload.playerId] : []));
        const lynched = openings.map((open) => {
          const death = log.filter((e) => e.seq < open.seq && e.type === 'player_died' && e.payload.cause === 'lynch').at(-1);
          return death?.type === 'player_died' ? death.payload.playerId : null;
        });
        heard += openings.length;
        expect(speakers).toEqual(lynched);
      }
    }
    expect(heard).toBeGreaterThan(5);
  });

  it('GIVEN two AI Mafia WHEN night falls THEN one of them asks its model for the kill and the other backs it without a call', async () => {
    const clock = new ManualTimers(T0);
    const asked = new Map<string, DecisionKind[]>();
    const recording = (id: string): AsyncBrain => {
      const brain = heuristicBrain();
      return (request, rng) => {
        asked.set(id, [...(asked.get(id) ?? []), request.kind]);
        return brain(request, rng);
      };
    };
    const seats = seatsOf(7).map((s) => ({ ...s, brain: recording(s.id) }));
    const result = await playHeadless({ gameId: 'mafia', seed: 3, seats, clock, time: 'virtual' });
    if (!result.ok) throw new Error(result.error);
    const state = result.value;
    const nights = state.log.filter((e) => e.type === 'phase_started' && e.payload.phase === 'night').length;
    const mafia = state.players.filter((p) => engine.isMafia(p.role));
    const proposalsAsked = mafia.reduce((n, p) => n + (asked.get(p.id) ?? []).filter((k) => k === 'mafia_chat').length, 0);
    expect(proposalsAsked).toBeLessThanOrEqual(nights);
    expect(state.log.filter((e) => e.type === 'mafia_proposal').length).toBeGreaterThan(proposalsAsked);
    // A backer keeps its reads: after its first night, its record shows them, as any decision's does.
    const backed = state.log.flatMap((e) => (e.type === 'reasoning' && e.payload.text.startsWith('Backs ') ? [e.payload] : []));
    expect(backed.filter((r) => r.day > 1).length).toBeGreaterThan(0);
    for (const r of backed.filter((r) => r.day > 1)) expect(Object.keys(r.suspicion ?? {}).length).toBeGreaterThan(0);
    // Nobody is asked for a will: they are written from what each seat knows.
    expect([...asked.values()].flat()).not.toContain('will');
    expect(state.log.some((e) => e.type === 'will_written')).toBe(true);
  });

  it('GIVEN seats played by their offline brain and a mind store that is slow and fails once WHEN a game is played THEN every move goes in at once, each seat’s minds are written in the order decided, one after another, and the failure is told', async () => {
    // GIVEN a store whose writes take a turn each and whose third write fails
    const writes: { playerId: string; order: number }[] = [];
    let inFlight = 0;
    let mostInFlight = 0;
    let n = 0;
    const errors: unknown[] = [];
    const minds = {
      load: () => Promise.resolve({}),
      save: async (_gameId: string, playerId: string) => {
        const order = n++;
        inFlight++;
        mostInFlight = Math.max(mostInFlight, inFlight);
        await new Promise((resolve) => setImmediate(resolve));
        inFlight--;
        if (order === 2) throw new Error('disk full');
        writes.push({ playerId, order });
      },
    };
    // WHEN a seven-seat game of offline seats is played
    const played = await playHeadless({
      gameId: 'minds-behind',
      seed: 5,
      seats: houseSeats(7),
      minds,
      driver: { onError: (e) => errors.push(e) },
    });
    // THEN it ends, every decision's mind was written (but the failed one) in the order decided, never two at once
    expect(played.ok && played.value.phase).toBe('ended');
    expect(n).toBeGreaterThan(20);
    expect(writes.map((w) => w.order)).toEqual([...Array(n).keys()].filter((k) => k !== 2));
    expect(mostInFlight).toBe(1);
    expect(errors.map(String)).toEqual(['Error: disk full']);
  });
});
