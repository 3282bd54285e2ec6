import { describe, expect, it } from 'vitest';
import { depart, legalVoteTargets, narrate, nominees, restDefense } from '../../src/game/index.ts';
import { TestGame } from '../support/test-game.ts';

const SEVEN = ['mafia', 'mafia', 'detective', 'doctor', 'townsperson', 'townsperson', 'townsperson'] as const;

/** A seven-player trial-day game at the start of day 1's discussion, nobody dead. */
function trialDay(rules = {}) {
  const t = TestGame.started([...SEVEN], { dayStyle: 'trial', lastWordsSeconds: 0, nightOneKill: false, ...rules });
  t.advanceTo('day');
  return t;
}

describe('a trial day: nominations', () => {
  it('GIVEN a trial day WHEN a player nominates and another seconds THEN the nominee stands accused', () => {
    const t = trialDay();
    const [a, b, c] = [t.by('townsperson', 0), t.by('townsperson', 1), t.by('mafia', 0)];
    t.must(t.nominate(a, c));
    expect(nominees(t.state)).toEqual([]);
    t.must(t.second(b, c));
    expect(nominees(t.state)).toEqual([c.id]);
    expect(t.state.trial.nominations[0]).toMatchObject({ nominatorId: a.id, seconderIds: [b.id], standing: true });
  });

  it('GIVEN a pending nomination WHEN another player nominates the same player THEN that counts as the second', () => {
    const t = trialDay();
    const target = t.by('mafia', 0);
    t.must(t.nominate(t.by('townsperson', 0), target));
    const events = t.must(t.nominate(t.by('townsperson', 1), target));
    expect(events.map((e) => e.type)).toEqual(['nomination_seconded']);
    expect(nominees(t.state)).toEqual([target.id]);
  });

  it('GIVEN the rules need no second WHEN a player nominates THEN the nominee stands at once', () => {
    const t = trialDay({ nominationSeconds: false });
    t.must(t.nominate(t.by('townsperson', 0), t.by('mafia', 0)));
    expect(nominees(t.state)).toEqual([t.by('mafia', 0).id]);
  });

  it('GIVEN bad nominations WHEN they are made THEN each is refused with a reason and nothing changes', () => {
    const t = trialDay({ maxNominees: 1 });
    const [a, b, c, d] = [t.by('townsperson', 0), t.by('townsperson', 1), t.by('townsperson', 2), t.by('doctor')];
    const before = t.state;
    expect(t.refuse(t.nominate(a, a)).code).toBe('self_target');
    expect(t.refuse(t.second(a, b)).message).toMatch(/Nobody has nominated/);
    t.must(t.nominate(a, b));
    expect(t.refuse(t.second(a, b)).message).toMatch(/another player must second/);
    expect(t.refuse(t.nominate(a, c)).message).toMatch(/already nominated someone today/);
    expect(t.refuse(t.second(b, b)).code).toBe('self_target');
    t.must(t.second(c, b));
    expect(t.refuse(t.nominate(d, b)).message).toMatch(/already stands accused/);
    expect(t.refuse(t.nominate(d, c)).message).toMatch(/1 nominee, the most a day allows/);
    expect(before.trial.nominations).toEqual([]);
  });

  it('GIVEN an open day WHEN a player nominates THEN it is refused: open days have no nominations', () => {
    const t = TestGame.started([...SEVEN], { nightOneKill: false });
    t.advanceTo('day');
    expect(t.refuse(t.nominate(t.by('townsperson', 0), t.by('mafia', 0))).code).toBe('rule_disabled');
  });

  it('GIVEN the vote WHEN someone tries to nominate THEN it is refused: nominations belong to the discussion', () => {
    const t = trialDay();
    t.must(t.nominate(t.by('townsperson', 0), t.by('mafia', 0)));
    t.must(t.second(t.by('townsperson', 1), t.by('mafia', 0)));
    t.advanceTo('vote');
    expect(t.refuse(t.nominate(t.by('townsperson', 2), t.by('mafia', 1))).code).toBe('wrong_phase');
  });
});

describe('a trial day: defense and vote', () => {
  it('GIVEN two nominees WHEN discussion ends THEN each defends in turn, only the defendant speaks, and the vote offers only them and no lynch', () => {
    const t = trialDay();
    const [x, y] = [t.by('mafia', 0), t.by('detective')];
    const [a, b, c, d] = [t.by('townsperson', 0), t.by('townsperson', 1), t.by('townsperson', 2), t.by('doctor')];
    t.must(t.nominate(a, x));
    t.must(t.second(b, x));
    t.must(t.nominate(c, y));
    t.must(t.second(d, y));
    t.advance();
    expect(t.state.phase).toBe('defense');
    expect(t.state.trial.defendant).toBe(x.id);
    expect(t.refuse(t.say(a, 'Guilty!')).message).toMatch(/is speaking in their defense/);
    t.must(t.say(x, 'I am innocent, look at the votes.'));
    t.advance();
    expect(t.state.trial.defendant).toBe(y.id);
    t.must(restDefense(t.state, { playerId: y.id, at: t.at + 1 }));
    expect(t.state.phase).toBe('vote');
    expect(legalVoteTargets(t.state, a.id).map((p) => p.id)).toEqual([x.id, y.id]);
    expect(legalVoteTargets(t.state, x.id).map((p) => p.id)).toEqual([y.id]);
    expect(t.refuse(t.vote(a, c)).message).toMatch(/is not on trial today; vote for .* or no lynch/);
    t.must(t.vote(a, 'no_lynch'));
    for (const p of [b, c, d, y, t.by('mafia', 1)]) t.must(t.vote(p, x));
    t.must(t.vote(x, y));
    expect(t.events('vote_resolved')[0]!.payload).toMatchObject({ lynchedId: x.id, reason: 'plurality' });
  });

  it('GIVEN nobody stands accused WHEN discussion ends THEN the day ends with no lynch and night falls', () => {
    const t = trialDay();
    t.must(t.nominate(t.by('townsperson', 0), t.by('mafia', 0)));
    const events = t.advance();
    expect(t.state.phase).toBe('night');
    const resolved = t.events('vote_resolved')[0]!;
    expect(resolved.payload).toMatchObject({ lynchedId: null, reason: 'no_nominees', tally: [] });
    expect(events.some((e) => e.type === 'phase_started' && e.payload.phase === 'defense')).toBe(false);
    expect(narrate(t.state, resolved)).toBe('Nobody stood accused: no trial, no lynch.');
  });

  it('GIVEN the defendant leaves mid-defense WHEN they are taken out THEN the next nominee speaks at once and the leaver is off the ballot', () => {
    const t = trialDay();
    const [x, y] = [t.by('townsperson', 0), t.by('townsperson', 1)];
    t.must(t.nominate(t.by('doctor'), x));
    t.must(t.second(t.by('detective'), x));
    t.must(t.nominate(t.by('townsperson', 2), y));
    t.must(t.second(t.by('mafia', 0), y));
    t.advance();
    expect(t.state.trial.defendant).toBe(x.id);
    t.must(depart(t.state, { playerId: x.id, at: t.at + 1 }));
    expect(t.state.phase).toBe('defense');
    expect(t.state.trial.defendant).toBe(y.id);
    expect(nominees(t.state)).toEqual([y.id]);
  });

  it('GIVEN the only nominee leaves during the vote WHEN the vote resolves THEN votes for them are gone and nobody is lynched', () => {
    const t = trialDay();
    const x = t.by('townsperson', 0);
    t.must(t.nominate(t.by('doctor'), x));
    t.must(t.second(t.by('detective'), x));
    t.advanceTo('vote');
    t.must(t.vote(t.by('doctor'), x));
    t.must(depart(t.state, { playerId: x.id, at: t.at + 1 }));
    expect(t.state.votes).toEqual({});
    expect(nominees(t.state)).toEqual([]);
    t.advance();
    expect(t.events('vote_resolved')[0]!.payload.lynchedId).toBeNull();
  });

  it('GIVEN a trial day WHEN the next day dawns THEN yesterday’s nominations are gone', () => {
    const t = trialDay();
    t.must(t.nominate(t.by('townsperson', 0), t.by('mafia', 0)));
    t.advanceTo('day');
    expect(t.state.day).toBe(2);
    expect(t.state.trial).toEqual({ nominations: [], defendant: null });
  });

  it('GIVEN nominations and defenses WHEN narrated THEN the record says who nominated, seconded and defended', () => {
    const t = trialDay();
    const x = t.by('mafia', 0);
    const lines = [...t.must(t.nominate(t.by('townsperson', 0), x)), ...t.must(t.second(t.by('townsperson', 1), x)), ...t.advance()].map(
      (e) => narrate(t.state, e),
    );
    expect(lines).toEqual([
      `⚖ ${t.by('townsperson', 0).name} nominates ${x.name} for trial.`,
      `⚖ ${t.by('townsperson', 1).name} seconds: ${x.name} stands accused.`,
      `— Defense 1: ${x.name} —`,
    ]);
  });
});
