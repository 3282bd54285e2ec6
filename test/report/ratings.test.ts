import { rate } from 'openskill';
import { describe, expect, it } from 'vitest';
import * as engine from '../../src/game/index.ts';
import { NEW_RATING, placings, rateGame, skill, type RatedPlacing, type Rating } from '../../src/report/ratings.ts';
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

/** A seat on a side, rated as itself. */
const seat = (id: string, side: string, place: 1 | 2) => ({ playerId: id, side, place, subject: `persona:${id}` });

/** How much a game moved the sum of mu over its seats (every seat its own subject). */
function muMoved(before: ReadonlyMap<string, Rating>, seats: readonly RatedPlacing[]): number {
  const after = rateGame((s) => before.get(s), seats);
  return seats.reduce((sum, s) => sum + after.get(s.subject!)!.mu - (before.get(s.subject!) ?? NEW_RATING).mu, 0);
}

describe('one game’s rating update', () => {
  it('GIVEN five town newcomers beat two Mafia newcomers WHEN rated THEN openskill rates the sides as teams of five (the Mafia padded at its mean), and what the winners gain the losers lose, the smaller side each taking more', () => {
    const town = ['a', 'b', 'c', 'd', 'e'].map((id) => seat(id, 'town', 1));
    const mafia = ['m', 'n'].map((id) => seat(id, 'mafia', 2));
    const next = rateGame(() => undefined, [...town, ...mafia]);
    // openskill's five newcomers against five: d up for each winner, d down for each loser.
    const five = Array.from({ length: 5 }, () => NEW_RATING);
    const [[won], [lost]] = rate([five, five], { rank: [1, 2] });
    const d = won!.mu - 25;
    expect(25 - lost!.mu).toBeCloseTo(d, 10);
    // The seats gained 5d and lost 2d: both scaled to 3.5d, each town seat gains 0.7d and each Mafia seat loses 1.75d.
    const moved = (s: RatedPlacing) => [next.get(s.subject!)!.mu - 25, next.get(s.subject!)!.sigma];
    for (const s of town) expect(moved(s)).toEqual([expect.closeTo(0.7 * d, 10) as number, won!.sigma]);
    for (const s of mafia) expect(moved(s)).toEqual([expect.closeTo(-1.75 * d, 10) as number, lost!.sigma]);
    expect(skill(NEW_RATING)).toBeCloseTo(0, 10);
  });

  it.each([
    ['the town win', { town: 1, mafia: 2, jester: 2 }],
    ['the Mafia win', { town: 2, mafia: 1, jester: 2 }],
    ['the Jester wins alone', { town: 2, mafia: 2, jester: 1 }],
    ['a draw', { town: 2, mafia: 2, jester: 2 }],
  ] as const)(
    'GIVEN seats of every rating on three sides WHEN %s THEN the sum of mu over the seats does not move, and (but in a draw) the winners go up and the losers down',
    (_, place) => {
      const before = new Map<string, Rating>([
        ['persona:a', { mu: 31, sigma: 2 }],
        ['persona:b', { mu: 22, sigma: 6 }],
        ['persona:c', { mu: 27, sigma: 4 }],
        ['persona:m', { mu: 18, sigma: 3 }],
        ['persona:n', { mu: 26, sigma: 7.5 }],
      ]);
      const seats = [
        seat('a', 'town', place.town),
        seat('b', 'town', place.town),
        seat('c', 'town', place.town),
        seat('t', 'town', place.town),
        seat('m', 'mafia', place.mafia),
        seat('n', 'mafia', place.mafia),
        seat('j', 'solo:j', place.jester),
      ];
      expect(muMoved(before, seats)).toBeCloseTo(0, 9);
      const after = rateGame((s) => before.get(s), seats);
      const moved = (s: RatedPlacing) => after.get(s.subject!)!.mu - (before.get(s.subject!) ?? NEW_RATING).mu;
      const draw = Object.values(place).every((p) => p === 2);
      if (!draw) for (const s of seats) expect(Math.sign(moved(s)), s.playerId).toBe(s.place === 1 ? 1 : -1);
    },
  );

  it('GIVEN a newcomer and a veteran on the winning side WHEN rated THEN both go up, the newcomer further, and the side as a whole gains what it did', () => {
    const veteran = { mu: 25, sigma: 2 };
    const before = new Map([['persona:v', veteran]]);
    const seats = [seat('v', 'town', 1), seat('new', 'town', 1), seat('m', 'mafia', 2), seat('n', 'mafia', 2)];
    const next = rateGame((s) => before.get(s), seats);
    const gain = (id: string) => next.get(`persona:${id}`)!.mu - 25;
    expect(gain('v')).toBeGreaterThan(0);
    expect(gain('new')).toBeGreaterThan(gain('v') * 5);
    expect(gain('v') + gain('new') + gain('m') + gain('n')).toBeCloseTo(0, 10);
    expect(next.get('persona:v')!.sigma).toBeLessThan(2);
  });

  it('GIVEN a person who plays unrated and a model seated on both sides WHEN rated THEN the person gets nothing and the model the mean of its two seats’ updates', () => {
    const strong = { mu: 30, sigma: 4 };
    const placed = (town: string, mafia: string): RatedPlacing[] => [
      { playerId: 'a', side: 'town', place: 1, subject: town },
      { playerId: 'h', side: 'town', place: 1, subject: null },
      { playerId: 'm', side: 'mafia', place: 2, subject: mafia },
    ];
    const next = rateGame((s) => (s.startsWith('model:') ? strong : undefined), placed('model:x', 'model:x'));
    // The same game with the two seats rated apart.
    const apart = rateGame((s) => (s.startsWith('model:') ? strong : undefined), placed('model:x1', 'model:x2'));
    const [x1, x2] = [apart.get('model:x1')!, apart.get('model:x2')!];
    expect([...next.keys()]).toEqual(['model:x']);
    expect(next.get('model:x')!.mu).toBeCloseTo((x1.mu + x2.mu) / 2, 10);
    expect(next.get('model:x')!.sigma).toBeCloseTo((x1.sigma + x2.sigma) / 2, 10);
    expect(x1.mu).toBeGreaterThan(strong.mu);
    expect(x2.mu).toBeLessThan(strong.mu);
  });
});
