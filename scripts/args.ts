import { parseArgs } from 'node:util';

/** Reads whole-number flags, with a readable error for anything else. */
export function intFlags<K extends string>(
  defaults: Record<K, number>,
  bounds: Record<K, [number, number]>,
  /** Other string flags the script reads itself. */
  others: readonly string[] = [],
): Record<K, number> {
  const options = Object.fromEntries([...Object.keys(defaults), ...others].map((k) => [k, { type: 'string' as const }]));
  const { values } = parseArgs({ options, allowPositionals: false });
  const out = { ...defaults };
  for (const key of Object.keys(defaults) as K[]) {
    const raw = values[key];
    if (raw === undefined) continue;
    const n = Number(raw);
    const [min, max] = bounds[key];
    if (typeof raw !== 'string' || !Number.isInteger(n) || n < min || n > max) {
      console.error(`--${key} must be a whole number from ${min} to ${max} (got ${raw}).`);
      process.exit(2);
    }
    out[key] = n;
  }
  return out;
}
