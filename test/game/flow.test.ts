import { describe, expect, it } from 'vitest';
import * as engine from '../../src/game/index.ts';
import { TestGame, T0 } from '../support/test-game.ts';

const SEVEN = ['mafia', 'mafia', 'detective', 'doctor', 'townsperson', 'townsperson', 'townsperson'] as const;

describe('phases and deadlines', () => {
  it('GIVEN a start at T0 WHEN each phase times out THEN phases run night → dawn → day → vote → night with deadlines from the injected clock', () => {
    const t = TestGame.started([...SEVEN], { nightSeconds: 60, dawnSeconds: 5, daySeconds: 120, voteSeconds: 30 });
    expect(t.state).toMatchObject({ phase: 'night', day: 1, deadline: T0 + 60_000 });
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) {
      t.advance();
      seen.push(`${t.state.phase} ${t.state.day} +${(t.state.deadline! - t.at) / 1000}s`);
    }
    expect(seen).toEqual(['dawn 1 +5s', 'day 1 +120s', 'vote 1 +30s', 'night 2 +60s']);
  });

  it('GIVEN a phase with time left WHEN advance is called early THEN it is refused with the time remaining and nothing changes', () => {
    const t = TestGame.started([...SEVEN]);
    const before = t.state;
    const result = engine.advance(t.state, { at: T0 + 30_000 });
    expect(result).toMatchObject({ ok: false, error: { code: 'not_due', message: 'The night runs for 60 more seconds.' } });
    expect(t.state).toBe(before);
  });

  it('GIVEN a lobby or an ended game WHEN advance is called THEN it is refused', () => {
    expect(engine.advance(TestGame.lobby(5).state, { at: T0 })).toMatchObject({ ok: false, error: { code: 'wrong_phase' } });
    const t = TestGame.started([...SEVEN]);
    t.must(engine.cancel(t.state, { by: null, reason: 'test', at: t.at }));
    expect(engine.advance(t.state, { at: T0 + 10 ** 9 })).toMatchObject({ ok: false, error: { code: 'game_over' } });
  });

  it('GIVEN nobody ever acts WHEN maxQuietCycles days pass without a death THEN the game ends in a draw', () => {
    const t = TestGame.started([...SEVEN], { maxQuietCycles: 2 });
    for (let i = 0; i < 40 && t.state.phase !== 'ended'; i++) t.advance();
    expect(t.state.outcome).toEqual({ kind: 'draw', reason: '2 days and nights passed without a death.' });
    expect(t.state.day).toBe(2);
  });
});

describe('winning', () => {
  it('GIVEN the last Mafia member WHEN the town lynches them THEN the Town wins and every role is revealed', () => {
    const t = TestGame.started(['mafia', 'doctor', 'detective', 'townsperson', 'townsperson']);
    t.advanceTo('vote');
    const mafia = t.by('mafia');
    for (const p of t.state.players) if (p.id !== mafia.id) t.must(t.vote(p, mafia));
    t.advance();
    expect(t.state.outcome).toEqual({ kind: 'win', faction: 'town' });
    expect(t.events('game_ended')[0]!.payload.roles).toEqual(Object.fromEntries(t.state.players.map((p) => [p.id, p.role])));
  });

  it('GIVEN Mafia one kill from parity WHEN they kill THEN the Mafia win at dawn', () => {
    const t = TestGame.started(['mafia', 'townsperson', 'townsperson'], {});
    t.must(t.act(t.by('mafia'), t.by('townsperson')));
    expect(t.state.outcome).toEqual({ kind: 'win', faction: 'mafia' });
    expect(t.state.phase).toBe('ended');
  });

  it('GIVEN an ended game WHEN anyone acts, votes or speaks THEN it is refused as over', () => {
    const t = TestGame.started(['mafia', 'townsperson', 'townsperson']);
    t.must(t.act(t.by('mafia'), t.by('townsperson')));
    expect(t.refuse(t.act(t.by('mafia'), t.by('townsperson', 1))).code).toBe('game_over');
    expect(t.refuse(t.vote(t.by('mafia'), t.by('townsperson', 1))).code).toBe('game_over');
    expect(t.refuse(t.say(t.by('mafia'), 'gg')).code).toBe('game_over');
  });
});

describe('determinism and event sourcing', () => {
  function script(seed: number) {
    const t = TestGame.lobby(9, { rules: { dayStyle: 'open' } }, seed);
    t.must(engine.start(t.state, { at: t.at }));
    for (const p of t.state.players) {
      const target = engine.legalNightTargets(t.state, p.id)[0];
      if (engine.hasNightAction(t.state, p) && target) t.must(t.act(p, target));
    }
    t.advanceTo('vote');
    return t.state;
  }

  it('GIVEN the same seed and inputs WHEN a game is played twice THEN the logs are identical, event for event', () => {
    expect(script(42).log).toEqual(script(42).log);
  });

  it('GIVEN different seeds WHEN roles are dealt THEN the deals differ', () => {
    const deal = (seed: number) =>
      script(seed)
        .players.map((p) => p.role)
        .join();
    expect(new Set([1, 2, 3, 4, 5].map(deal)).size).toBeGreaterThan(1);
  });

  it('GIVEN a game log WHEN it is serialised, parsed back and folded THEN the state is identical', () => {
    const state = script(5);
    const json = JSON.parse(JSON.stringify(state.log)) as unknown[];
    const parsed = json.map((e) => engine.GameEventSchema.parse(e));
    expect(engine.fold(parsed)).toEqual(state);
  });

  it('GIVEN a state WHEN more events are folded onto it, in one go or in parts THEN it is left as it was and the results agree with applying them one by one', () => {
    const log = script(5).log;
    const cut = Math.floor(log.length / 2);
    const half = engine.fold(log.slice(0, cut));
    const halfLog = [...half.log];
    const whole = engine.fold(log.slice(cut), half);
    expect(half.log).toEqual(halfLog);
    expect(whole).toEqual(engine.fold(log));
    expect(whole).toEqual(log.reduce((state, event) => engine.applyEvent(state, event), engine.fold([])));
    expect(engine.fold([], half)).toBe(half);
  });

  it('GIVEN a log with a gap WHEN it is folded THEN it throws: that is a bug, not a player error', () => {
    const log = script(5).log;
    expect(() => engine.fold([log[0]!, log[2]!])).toThrow(/gap/);
  });
});
