import { rate } from 'openskill';
import { describe, expect, it } from 'vitest';
import * as engine from '../../src/game/index.ts';
import { NEW_RATING, placings, rateGame, skill } from '../../src/report/ratings.ts';
import { TestGame } from '../support/test-game.ts';

describe('placings of a finished game', () => {
  it('GIVEN the town lynch the Mafia WHEN placed THEN the town are first, the Mafia second, and a Jester who did not win second on a side of its own', () => {
    const g = TestGame.started(['mafia', 'townsperson', 'townsperson', 'townsperson', 'jester']);
    g.must(g.act(g.by('mafia'), null));
    g.advanceTo('vote');
    for (const p of g.state.players) if (p.role !== 'mafia') g.must(g.vote(p, g.by('mafia')));
    g.must(g.vote(g.by('mafia'), g.by('jester')));
    expect(g.state.outcome).toEqual({ kind: 'win', faction: 'town' });
    const placed = placings(g.state)!;
    const of = (role: engine.RoleId) => placed.find((p) => p.playerId === g.by(role).id);
    expect(of('townsperson')).toEqual({ playerId: g.by('townsperson').id, side: 'town', place: 1 });
    expect(of('mafia')).toEqual({ playerId: g.by('mafia').id, side: 'mafia', place: 2 });
    expect(of('jester')).toEqual({ playerId: g.by('jester').id, side: `solo:${g.by('jester').id}`, place: 2 });
  });

  it('GIVEN a running game and a game called off WHEN placed THEN neither has placings', () => {
    const g = TestGame.started(['mafia', 'townsperson', 'townsperson']);
    expect(placings(g.state)).toBeNull();
    g.must(engine.cancel(g.state, { by: 'p1', reason: 'bored', at: g.at + 1 }));
    expect(placings(g.state)).toBeNull();
  });
});

describe('one game’s rating update', () => {
  it('GIVEN two town personas beat one Mafia persona WHEN rated THEN the result is openskill’s for those teams, the smaller side padded with a stand-in at its mean: winners up, loser down as much, newcomers from 25 ± 8.33', () => {
    const next = rateGame(
      () => undefined,
      [
        { playerId: 'a', side: 'town', place: 1, subject: 'persona:a' },
        { playerId: 'b', side: 'town', place: 1, subject: 'persona:b' },
        { playerId: 'm', side: 'mafia', place: 2, subject: 'persona:m' },
      ],
    );
    const [[a, b], [m]] = rate(
      [
        [NEW_RATING, NEW_RATING],
        [NEW_RATING, NEW_RATING],
      ],
      { rank: [1, 2] },
    );
    expect(next).toEqual(
      new Map([
        ['persona:a', a],
        ['persona:b', b],
        ['persona:m', m],
      ]),
    );
    expect(next.get('persona:a')!.mu).toBeGreaterThan(25);
    // Weighed by their means, equal sides start even: what one winner gains, the loser loses.
    expect(25 - next.get('persona:m')!.mu).toBeCloseTo(next.get('persona:a')!.mu - 25, 10);
    expect(skill(NEW_RATING)).toBeCloseTo(0, 10);
  });

  it('GIVEN a person who plays unrated and a model seated on both sides WHEN rated THEN the person gets nothing and the model the mean of its two seats’ updates', () => {
    const strong = { mu: 30, sigma: 4 };
    const next = rateGame(
      (s) => (s === 'model:x' ? strong : undefined),
      [
        { playerId: 'a', side: 'town', place: 1, subject: 'model:x' },
        { playerId: 'h', side: 'town', place: 1, subject: null },
        { playerId: 'm', side: 'mafia', place: 2, subject: 'model:x' },
      ],
    );
    const standIn = { mu: strong.mu, sigma: strong.sigma };
    const [[x1], [x2]] = rate(
      [
        [strong, NEW_RATING],
        [strong, standIn],
      ],
      { rank: [1, 2] },
    );
    expect([...next.keys()]).toEqual(['model:x']);
    expect(next.get('model:x')!.mu).toBeCloseTo((x1.mu + x2.mu) / 2, 10);
    expect(next.get('model:x')!.sigma).toBeCloseTo((x1.sigma + x2.sigma) / 2, 10);
  });
});
