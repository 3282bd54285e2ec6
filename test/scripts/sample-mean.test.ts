import { describe, expect, it } from 'vitest';
import { sampleMean } from '../../scripts/lib/sample-mean.ts';

describe('sampleMean: how far a bench figure over many games may be off', () => {
  it('GIVEN the costs of eight games WHEN summed up THEN it gives their mean, the sample deviation and the 95 % half-width of the mean', () => {
    // GIVEN: a sample whose mean is 5 and whose squared deviations sum to 32.
    const costs = [2, 4, 4, 4, 5, 5, 7, 9];
    // WHEN
    const s = sampleMean(costs);
    // THEN: sd = sqrt(32 / 7); the mean's half-width is 1.96 standard errors.
    expect(s).toMatchObject({ n: 8, mean: 5, min: 2, max: 9 });
    expect(s.sd).toBeCloseTo(Math.sqrt(32 / 7), 12);
    expect(s.ci95).toBeCloseTo((1.96 * Math.sqrt(32 / 7)) / Math.sqrt(8), 12);
  });

  it('GIVEN one game WHEN summed up THEN nothing is known of the spread: deviation and half-width 0', () => {
    expect(sampleMean([0.2])).toEqual({ n: 1, mean: 0.2, sd: 0, ci95: 0, min: 0.2, max: 0.2 });
  });

  it('GIVEN no games WHEN summed up THEN it is a bug in the caller, not a figure', () => {
    expect(() => sampleMean([])).toThrow(/no values/);
  });
});
