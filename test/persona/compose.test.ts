import { describe, expect, it } from 'vitest';
import { advanceArc, resetArc, resolveParts } from '../../src/persona/compose.ts';
import { arcProgressSchema } from '../../src/persona/composition.ts';
import { arc, part } from './fixtures.ts';

const own = [part('stoic soul', 'soul'), part('dry tone', 'tone'), part('quiet tone', 'tone'), part('win', 'goal')];
const names = (r: ReturnType<typeof resolveParts>) => (r.ok ? r.value.map((p) => `${p.source}:${p.name}`) : r.error.message);

describe('composition', () => {
  it('GIVEN only the persona’s parts WHEN resolved THEN they come back in their order', () => {
    expect(names(resolveParts(own, null))).toEqual(['persona:stoic soul', 'persona:dry tone', 'persona:quiet tone', 'persona:win']);
  });

  it('GIVEN an arc stage with a tone part WHEN resolved THEN it replaces all of the persona’s tone parts in place', () => {
    expect(names(resolveParts(own, { arc: arc(), stage: 0 }))).toEqual(['persona:stoic soul', 'arc:calm tone', 'persona:win']);
  });

  it('GIVEN a runtime override, an arc stage and own parts of the same type WHEN resolved THEN the override wins, then the stage, then the persona', () => {
    const progress = { arc: arc(), stage: 1 };
    expect(names(resolveParts(own, progress, { tone: part('cold tone', 'tone') }))).toEqual([
      'persona:stoic soul',
      'override:cold tone',
      'arc:survive',
    ]);
    expect(names(resolveParts(own, progress))).toEqual(['persona:stoic soul', 'arc:sharp tone', 'arc:survive']);
  });

  it('GIVEN parts of types the persona lacks WHEN resolved THEN stage parts and then overrides follow its own parts', () => {
    expect(names(resolveParts([part('stoic soul', 'soul')], { arc: arc(), stage: 1 }, { flaw: part('pride', 'flaw') }))).toEqual([
      'persona:stoic soul',
      'arc:sharp tone',
      'arc:survive',
      'override:pride',
    ]);
  });

  it('GIVEN an override under the wrong type WHEN resolved THEN it is refused with both types named', () => {
    expect(names(resolveParts(own, null, { tone: part('pride', 'flaw') }))).toBe(
      'The override for tone names "pride", which is a flaw part.',
    );
  });

  it('GIVEN an arc WHEN advanced to the end and reset THEN the stage moves, stops at the last one with a reason, and returns to the first', () => {
    const start = { arc: arc(), stage: 0 };
    const next = advanceArc(start);
    expect(next).toEqual({ ok: true, value: { arc: arc(), stage: 1 } });
    if (!next.ok) return;
    expect(advanceArc(next.value)).toEqual({
      ok: false,
      error: { code: 'invalid', message: '"Rise and fall" is already at its last stage (Cornered).' },
    });
    expect(resetArc(next.value).stage).toBe(0);
    expect(arcProgressSchema.safeParse({ arc: arc(), stage: 2 }).success).toBe(false);
  });
});
