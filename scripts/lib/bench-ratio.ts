/** A figure against its target, as the bench prints it: the ratio (above 1 is better) and a tick or a cross. */
export function ratio(value: number, target: number, higherIsBetter = true): string {
  const r = higherIsBetter ? value / target : value === 0 ? Number.POSITIVE_INFINITY : target / value;
  return `${Number.isFinite(r) ? r.toFixed(2) : '∞'}× target ${r >= 1 ? '✓' : '✗'}`;
}
