/**
 * How many games a big property test plays: all of them in CI (`CI=true`), a tenth locally so a
 * developer's run stays quick. `PROPERTY_RUNS=full` plays them all locally too.
 */
const FULL_PROPERTY_RUNS = process.env.CI === 'true' || process.env.PROPERTY_RUNS === 'full';

export function propertyRuns(full: number): number {
  return FULL_PROPERTY_RUNS ? full : Math.max(30, Math.round(full / 10));
}

/** A count written for titles: 1000 → "1,000". */
export function counted(n: number): string {
  return n.toLocaleString('en-US');
}
