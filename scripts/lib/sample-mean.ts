/** A sample's mean, spread and how far the mean may be off (normal approximation, sound for n in the hundreds). */
export interface SampleMean {
  readonly n: number;
  readonly mean: number;
  /** Standard deviation of one value (n − 1 in the denominator). */
  readonly sd: number;
  /** Half-width of the mean's 95 % confidence interval: 1.96 standard errors. */
  readonly ci95: number;
  readonly min: number;
  readonly max: number;
}

export function mean(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

export function sampleMean(values: readonly number[]): SampleMean {
  const n = values.length;
  if (n === 0) throw new Error('sampleMean of no values');
  const average = mean(values);
  const sd = n > 1 ? Math.sqrt(values.reduce((a, v) => a + (v - average) ** 2, 0) / (n - 1)) : 0;
  return { n, mean: average, sd, ci95: (1.96 * sd) / Math.sqrt(n), min: Math.min(...values), max: Math.max(...values) };
}
