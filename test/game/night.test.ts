import { describe, expect, it } from 'vitest';
import { legalNightTargets } from '../../src/game/index.ts';
import { TestGame } from '../support/test-game.ts';

const SEVEN = ['mafia', 'mafia', 'detective', 'doctor', 'townsperson', 'townsperson', 'townsperson'] as const;

describe('night actions by role', () => {
  it('GIVEN the Mafia agree on a target WHEN the night resolves THEN that player dies, announced at dawn', () => {
    const t = TestGame.started([...SEVEN]);
    const victim = t.by('townsperson');
    t.must(t.act(t.by('mafia', 0), victim));
    t.must(t.act(t.by('mafia', 1), victim));
    t.must(t.act(t.by('detective'), t.by('townsperson', 1)));
    t.must(t.act(t.by('doctor'), t.by('townsperson', 2)));
    // Every action is in, so the night resolves without waiting for the deadline.
    expect(t.state.phase).toBe('dawn');
    expect(t.player(victim.id).alive).toBe(false);
    const death = t.events('player_died')[0]!;
    expect(death.payload).toMatchObject({ playerId: victim.id, cause: 'mafia', role: 'townsperson' });
  });

  it('GIVEN the Doctor protects the Mafia target WHEN the night resolves THEN nobody dies', () => {
    const t = TestGame.started([...SEVEN]);
    const victim = t.by('detective');
    t.must(t.act(t.by('doctor'), victim));
    t.must(t.act(t.by('detective'), t.by('mafia')));
    t.must(t.act(t.by('mafia', 0), victim));
    t.must(t.act(t.by('mafia', 1), victim));
    expect(t.player(victim.id).alive).toBe(true);
    expect(t.events('night_resolved')[0]!.payload.deaths).toEqual([]);
  });

  it('GIVEN the Detective investigates Mafia and a Godfather WHEN results come THEN Mafia reads mafia and the Godfather innocent', () => {
    const t = TestGame.started([
      'godfather',
      'mafia',
      'detective',
      'detective',
      'townsperson',
      'townsperson',
      'townsperson',
      'townsperson',
    ]);
    t.must(t.act(t.by('detective', 0), t.by('godfather')));
    t.must(t.act(t.by('detective', 1), t.by('mafia')));
    t.must(t.act(t.by('godfather'), null));
    t.must(t.act(t.by('mafia'), null));
    const results = t.events('investigation_result').map((e) => [e.payload.targetId, e.payload.result]);
    expect(results).toEqual([
      [t.by('godfather').id, 'innocent'],
      [t.by('mafia').id, 'mafia'],
    ]);
    expect(t.events('investigation_result')[0]!.visibility).toEqual({ kind: 'player', playerId: t.by('detective', 0).id });
  });

  it('GIVEN the Mafia kill the Detective WHEN the night resolves THEN the Detective learns nothing (investigate comes after kill)', () => {
    const t = TestGame.started([...SEVEN]);
    const detective = t.by('detective');
    t.must(t.act(detective, t.by('mafia')));
    t.must(t.act(t.by('doctor'), t.by('townsperson')));
    t.must(t.act(t.by('mafia', 0), detective));
    t.must(t.act(t.by('mafia', 1), detective));
    expect(t.player(detective.id).alive).toBe(false);
    expect(t.events('investigation_result')).toEqual([]);
  });

  it('GIVEN a Vigilante with one shot WHEN they shoot THEN the target dies and a second shot is refused', () => {
    const t = TestGame.started(['mafia', 'mafia', 'vigilante', 'doctor', 'townsperson', 'townsperson', 'townsperson']);
    const vig = t.by('vigilante');
    t.must(t.act(vig, t.by('mafia', 0)));
    t.must(t.act(t.by('doctor'), t.by('townsperson', 0)));
    t.must(t.act(t.by('mafia', 0), null));
    t.must(t.act(t.by('mafia', 1), null));
    expect(t.player(t.by('mafia', 0).id).death).toEqual({ cause: 'vigilante', day: 1 });
    t.advanceTo('night');
    // Out of shots: the Vigilante has no action tonight.
    expect(legalNightTargets(t.state, vig.id)).toEqual([]);
    expect(t.refuse(t.act(vig, t.by('mafia', 1))).code).toBe('invalid_target');
  });

  it('GIVEN vigilanteShots = 2 WHEN the Vigilante shoots on two nights THEN both shots count', () => {
    const t = TestGame.started(['mafia', 'mafia', 'vigilante', 'townsperson', 'townsperson', 'townsperson', 'townsperson'], {
      vigilanteShots: 2,
    });
    t.must(t.act(t.by('vigilante'), t.by('townsperson', 0)));
    t.advanceTo('night');
    expect(t.refuse(t.act(t.by('vigilante'), t.by('townsperson', 0))).code).toBe('dead_target');
    t.must(t.act(t.by('vigilante'), t.by('townsperson', 1)));
    expect(t.state.shotsUsed).toEqual({ [t.by('vigilante').id]: 1 });
    t.advance();
    expect(t.state.shotsUsed[t.by('vigilante').id]).toBe(2);
  });

  it('GIVEN the Doctor may self-protect (default) WHEN they protect themself THEN it is accepted; with the switch off it is refused', () => {
    const on = TestGame.started([...SEVEN]);
    on.must(on.act(on.by('doctor'), on.by('doctor')));
    const off = TestGame.started([...SEVEN], { doctorSelfProtect: false });
    const error = off.refuse(off.act(off.by('doctor'), off.by('doctor')));
    expect(error.code).toBe('invalid_target');
    expect(error.message).toMatch(/may not protect themself/);
  });

  it('GIVEN the Doctor protected X last night WHEN they protect X again THEN it is refused unless repeat protection is on', () => {
    for (const doctorRepeatProtect of [false, true]) {
      const t = TestGame.started([...SEVEN], { doctorRepeatProtect });
      const x = t.by('townsperson');
      t.must(t.act(t.by('doctor'), x));
      t.advanceTo('night');
      const result = t.act(t.by('doctor'), x);
      if (doctorRepeatProtect) t.must(result);
      else expect(t.refuse(result).message).toMatch(/twice in a row/);
    }
  });

  it('GIVEN night-one kills are off WHEN the Mafia or Vigilante try to kill on night 1 THEN they are refused, and allowed on night 2', () => {
    const t = TestGame.started(['mafia', 'vigilante', 'detective', 'townsperson', 'townsperson', 'townsperson'], { nightOneKill: false });
    expect(t.refuse(t.act(t.by('mafia'), t.by('townsperson'))).code).toBe('rule_disabled');
    expect(t.refuse(t.act(t.by('vigilante'), t.by('mafia'))).code).toBe('rule_disabled');
    t.must(t.act(t.by('detective'), t.by('mafia')));
    // Only the Detective had to act, so night 1 resolved at once.
    expect(t.state.phase).toBe('dawn');
    t.advanceTo('night');
    t.must(t.act(t.by('mafia'), t.by('townsperson')));
  });

  it('GIVEN a Townsperson or Jester WHEN they try a night action THEN they are told their role has none', () => {
    const t = TestGame.started(['mafia', 'jester', 'townsperson', 'townsperson', 'doctor']);
    expect(t.refuse(t.act(t.by('townsperson'), t.by('mafia'))).code).toBe('no_action');
    expect(t.refuse(t.act(t.by('jester'), t.by('mafia'))).code).toBe('no_action');
  });
});

describe('night target errors leave the game unchanged', () => {
  const t = TestGame.started([...SEVEN]);
  const before = t.state;
  const cases = [
    ['a Mafia member targets a teammate', () => t.act(t.by('mafia', 0), t.by('mafia', 1)), 'invalid_target'],
    ['the Detective targets themself', () => t.act(t.by('detective'), t.by('detective')), 'self_target'],
    ['a player not in the game acts', () => t.act({ ...t.by('doctor'), id: 'stranger' }, t.by('mafia')), 'not_in_game'],
    ['the target is unknown', () => t.act(t.by('doctor'), { ...t.by('mafia'), id: 'ghost' }), 'unknown_target'],
  ] as const;
  for (const [story, run, code] of cases) {
    it(`GIVEN night 1 WHEN ${story} THEN it is refused with ${code}`, () => {
      expect(t.refuse(run()).code).toBe(code);
      expect(t.state).toBe(before);
    });
  }

  it('GIVEN a dead player WHEN they or anyone target them at night THEN both are refused', () => {
    const g = TestGame.started([...SEVEN]);
    const victim = g.by('doctor');
    g.must(g.act(g.by('mafia', 0), victim));
    g.must(g.act(g.by('mafia', 1), victim));
    g.advanceTo('night');
    expect(g.refuse(g.act(victim, g.by('mafia'))).code).toBe('dead');
    expect(g.refuse(g.act(g.by('detective'), victim)).code).toBe('dead_target');
  });

  it('GIVEN it is day WHEN someone takes a night action THEN it is refused as the wrong phase', () => {
    const g = TestGame.started([...SEVEN]);
    g.advanceTo('day');
    expect(g.refuse(g.act(g.by('detective'), g.by('mafia'))).code).toBe('wrong_phase');
  });
});

describe('Mafia coordination (seed 001)', () => {
  const NINE = ['mafia', 'mafia', 'mafia', 'detective', 'doctor', 'townsperson', 'townsperson', 'townsperson', 'townsperson'] as const;

  it('GIVEN three Mafia WHEN two of them agree in round one THEN their target is decided by agreement', () => {
    const t = TestGame.started([...NINE]);
    const [a, b, c] = [t.by('mafia', 0), t.by('mafia', 1), t.by('mafia', 2)];
    t.must(t.act(a, t.by('townsperson', 0)));
    t.must(t.act(b, t.by('townsperson', 1)));
    t.must(t.act(c, t.by('townsperson', 0)));
    expect(t.events('mafia_decision')[0]!.payload).toEqual({ targetId: t.by('townsperson', 0).id, how: 'agreement' });
  });

  it('GIVEN a three-way split WHEN round two is still split THEN the lowest-seat Mafia decides', () => {
    const t = TestGame.started([...NINE]);
    const team = [t.by('mafia', 0), t.by('mafia', 1), t.by('mafia', 2)];
    const targets = [t.by('townsperson', 0), t.by('townsperson', 1), t.by('townsperson', 2)];
    team.forEach((m, i) => t.must(t.act(m, targets[i]!)));
    const second = t.events('mafia_second_round')[0]!;
    expect(second.visibility).toEqual({ kind: 'team', team: 'mafia' });
    expect(Object.keys(second.payload.firstRound)).toHaveLength(3);
    // Round two: still split, so the lowest seat's choice stands.
    team.forEach((m, i) => t.must(t.act(m, targets[(i + 1) % 3]!)));
    const lowest = [...team].sort((x, y) => x.seat - y.seat)[0]!;
    const lowestChoice = targets[(team.indexOf(lowest) + 1) % 3]!;
    expect(t.events('mafia_decision')[0]!.payload).toEqual({ targetId: lowestChoice.id, how: 'lowest_seat' });
  });

  it('GIVEN only some Mafia proposed WHEN the night deadline passes THEN the lowest-seat proposer decides and the kill happens', () => {
    const t = TestGame.started([...NINE]);
    const proposer = t.by('mafia', 2);
    t.must(t.act(proposer, t.by('townsperson', 3)));
    t.advance();
    expect(t.events('mafia_decision')[0]!.payload).toEqual({ targetId: t.by('townsperson', 3).id, how: 'deadline' });
    expect(t.player(t.by('townsperson', 3).id).alive).toBe(false);
  });

  it('GIVEN no Mafia proposal WHEN the deadline passes THEN nobody is killed (missing actions default to none)', () => {
    const t = TestGame.started([...NINE]);
    t.advance();
    expect(t.events('mafia_decision')[0]!.payload.how).toBe('none');
    expect(t.events('night_resolved')[0]!.payload.deaths).toEqual([]);
  });

  it('GIVEN the kill is decided WHEN a Mafia member proposes again THEN it is refused', () => {
    const t = TestGame.started(['mafia', 'doctor', 'townsperson', 'townsperson', 'detective']);
    t.must(t.act(t.by('mafia'), t.by('townsperson')));
    expect(t.refuse(t.act(t.by('mafia'), t.by('doctor'))).code).toBe('wrong_phase');
  });
});
