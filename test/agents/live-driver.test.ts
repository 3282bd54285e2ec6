import { describe, expect, it } from 'vitest';
import { heuristicBrain } from '../../src/agents/heuristic/brain.ts';
import { LiveAiDriver } from '../../src/agents/live-driver.ts';
import { SeatMinds } from '../../src/agents/seat-minds.ts';
import { HOUSE_PLAYERS } from '../../src/agents/seats.ts';
import { GameSession } from '../../src/commands/session/game-session.ts';
import { ManualTimers } from '../../src/commands/session/timers.ts';
import * as engine from '../../src/game/index.ts';
import type { GameState } from '../../src/game/index.ts';
import { ok } from '../../src/result.ts';
import { T0 } from '../support/game-table.ts';

/** A started game where the first `ai` of `seats` players are AI (house voices) and the rest people. */
function live(seats: number, ai: number) {
  const timers = new ManualTimers(T0);
  let state = (engine.createGame({ gameId: 'live', seed: 21, at: T0 }) as Extract<engine.CommandResult, { ok: true }>).state;
  HOUSE_PLAYERS.slice(0, seats).forEach((v, i) => {
    const joined = engine.join(state, { player: { id: `p${i}`, name: v.name, kind: i < ai ? 'ai' : 'human' }, at: T0 });
    if (joined.ok) state = joined.state;
  });
  const started = engine.start(state, { at: T0 });
  if (!started.ok) throw new Error(started.error.message);
  const minds = new SeatMinds(HOUSE_PLAYERS.slice(0, ai).map((v, i) => ({ id: `p${i}`, name: v.name, brain: heuristicBrain(v) })));
  let driver: LiveAiDriver | undefined;
  const session = new GameSession(started.state, {
    timers,
    save: async () => ok(undefined),
    publish: (events) => driver?.onEvents(events),
  });
  driver = new LiveAiDriver(session, minds, { speechGapMs: 0, sleep: async () => undefined });
  session.open();
  driver.resume();
  /** Lets the AI finish what it is doing, then lets the clock reach the deadline. */
  const step = async () => {
    await driver!.idle();
    await session.submit((s) => ({ ok: true, state: s, events: [] }));
    if (session.state.deadline !== null) timers.advanceTo(session.state.deadline);
    await session.submit((s) => ({ ok: true, state: s, events: [] }));
  };
  return { session, driver, step, timers };
}

async function playOut(step: () => Promise<void>, state: () => GameState): Promise<void> {
  for (let i = 0; i < 200 && state().phase !== 'ended'; i++) await step();
}

describe('AI seats in a live game', () => {
  it('GIVEN seven AI seats and a real-time session WHEN deadlines come and go THEN the AI act in every phase and the game ends', async () => {
    const { session, step } = live(7, 7);
    await playOut(step, () => session.state);
    expect(session.state.phase).toBe('ended');
    const log = session.state.log;
    expect(log.some((e) => e.type === 'mafia_proposal')).toBe(true);
    expect(log.some((e) => e.type === 'speech' && e.payload.channel === 'town')).toBe(true);
    expect(log.some((e) => e.type === 'vote_cast')).toBe(true);
    expect(log.some((e) => e.type === 'reasoning')).toBe(true);
  });

  it('GIVEN people at the table WHEN a person names an AI in the day THEN that AI answers next, and the game still ends with the people idle', async () => {
    const { session, driver, step } = live(7, 4);
    // Run to the first day, let the AI finish their opening speeches.
    for (let i = 0; i < 10 && session.state.phase !== 'day'; i++) await step();
    await driver.idle();
    const human = session.state.players.find((p) => p.kind === 'human' && p.alive)!;
    // Someone who may still speak today (two messages per seat a day).
    const townSpeeches = (id: string) => session.state.log.filter((e) => e.type === 'speech' && e.payload.channel === 'town' && e.payload.playerId === id).length;
    const named = session.state.players.find((p) => p.kind === 'ai' && p.alive && townSpeeches(p.id) < 2)!;
    const before = session.state.log.length;
    await session.submit((s, at) => engine.speak(s, { playerId: human.id, channel: 'town', text: `${named.name}, why so quiet?`, at }));
    await driver.idle();
    const next = session.state.log.slice(before).find((e) => e.type === 'speech' && e.payload.playerId !== human.id);
    expect(next?.type === 'speech' && next.payload.playerId).toBe(named.id);
    await playOut(step, () => session.state);
    expect(session.state.phase).toBe('ended');
  });
});
