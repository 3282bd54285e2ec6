import { describe, expect, it } from 'vitest';
import * as engine from '../../src/game/index.ts';
import { heuristicBrain } from '../../src/agents/heuristic/brain.ts';
import { TestGame } from '../support/test-game.ts';
import { decisionRequest } from '../support/decision-request.ts';

const brain = heuristicBrain({ name: 'Test', phrases: [] });

const request = decisionRequest;

const NINE = ['mafia', 'mafia', 'detective', 'doctor', 'townsperson', 'townsperson', 'townsperson', 'townsperson', 'townsperson'] as const;

/**
 * Day 1: a Townsperson bluffs Detective and calls another Townsperson Mafia; the real Detective
 * claims with an innocent result. The town lynches the one the bluffer named, and the lynch
 * reveals a Townsperson: the bluffer's result is proven false, the real one's still holds.
 */
function bluffedDetective(seed = 7): TestGame {
  const t = TestGame.started([...NINE], {}, seed);
  const [bluffer, named, cleared] = [t.by('townsperson', 0), t.by('townsperson', 1), t.by('townsperson', 2)];
  t.advanceTo('day');
  t.must(t.say(bluffer, `I'm the Detective. Night 1: ${named.name} is Mafia.`));
  t.must(t.say(t.by('detective'), `I'm the Detective. Night 1: ${cleared.name} is innocent.`));
  t.advanceTo('vote');
  for (const p of t.state.players.filter((p) => p.alive && p.id !== named.id)) t.must(t.vote(p, named));
  t.advanceTo('night');
  return t;
}

describe('role guesses of the offline brain', () => {
  it('GIVEN one Detective claim whose results hold up WHEN a Townsperson reads the table THEN it guesses the claimant is the Detective, and nobody else is', () => {
    const t = TestGame.started([...NINE]);
    t.advanceTo('day');
    const detective = t.by('detective');
    t.must(t.say(detective, `I'm the Detective. Night 1: ${t.by('townsperson', 1).name} is innocent.`));
    const beliefs = brain(request(t, t.by('townsperson', 2).id, 'speak'), engine.createRng(1)).beliefs;
    expect(beliefs[detective.id]?.roleGuess).toBe('detective');
    expect(Object.entries(beliefs).filter(([, b]) => b.roleGuess === 'detective')).toHaveLength(1);
  });

  it('GIVEN a Detective claim whose Mafia result a lynch proved false WHEN a Townsperson reads the table THEN the liar is no likely Detective and the other claimant is', () => {
    const t = bluffedDetective();
    const beliefs = brain(request(t, t.by('townsperson', 3).id, 'night'), engine.createRng(1)).beliefs;
    expect(beliefs[t.by('townsperson', 0).id]?.roleGuess).not.toBe('detective');
    expect(beliefs[t.by('detective').id]?.roleGuess).toBe('detective');
  });

  it('GIVEN two Detective claimants, one proven a liar WHEN the Mafia choose the kill over many seeds THEN they always kill the likely Detective', () => {
    for (let seed = 0; seed < 20; seed++) {
      const t = bluffedDetective(seed);
      const kill = brain(request(t, t.by('mafia').id, 'night'), engine.createRng(seed));
      expect(kill.targetId).toBe(t.by('detective').id);
      expect(kill.beliefs[t.by('detective').id]?.roleGuess).toBe('detective');
    }
  });

  it('GIVEN two Detective claimants, one proven a liar WHEN the Doctor protects over many seeds THEN it always protects the likely Detective', () => {
    for (let seed = 0; seed < 20; seed++) {
      const t = bluffedDetective(seed);
      expect(brain(request(t, t.by('doctor').id, 'night'), engine.createRng(seed)).targetId).toBe(t.by('detective').id);
    }
  });

  it('GIVEN a Detective result naming a Mafia member WHEN the Detective reads the table THEN that player is its likely Mafia; a Mafia seat never guesses Mafia', () => {
    const t = TestGame.started([...NINE]);
    const mafia = t.by('mafia', 1);
    t.must(t.act(t.by('detective'), mafia));
    t.advanceTo('day');
    expect(brain(request(t, t.by('detective').id, 'speak'), engine.createRng(2)).beliefs[mafia.id]?.roleGuess).toBe('mafia');
    const mafiaReads = brain(request(t, t.by('mafia').id, 'speak'), engine.createRng(2)).beliefs;
    expect(Object.values(mafiaReads).some((b) => b.roleGuess === 'mafia')).toBe(false);
  });
});
