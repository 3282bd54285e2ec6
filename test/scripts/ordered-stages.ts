/** What every Discord bench test asserts of the stages of its acknowledgements. */
import { expect } from 'vitest';
import type { DiscordBenchFigures, StageKey } from '../../scripts/bench-discord-world.ts';

const STAGES: readonly StageKey[] = ['dispatch', 'gateway', 'handler'];

/**
 * Every acknowledged interaction was traced by the bot, and its stages are ordered: created ≤
 * dispatched ≤ reached the router ≤ acknowledged, each stage at least 0 ms for every one of them.
 */
export function expectOrderedStages(figures: DiscordBenchFigures): void {
  expect(figures.stages.traced).toBe(figures.interactions - figures.unanswered);
  expect(figures.stages.traced).toBeGreaterThan(0);
  for (const stage of STAGES) {
    const f = figures.stages.all[stage];
    expect(f.minMs, stage).toBeGreaterThanOrEqual(0);
    expect(f.p50Ms, stage).toBeLessThanOrEqual(f.p99Ms);
    expect(f.p99Ms, stage).toBeLessThanOrEqual(f.maxMs);
  }
  expect(figures.stages.byKind.map((k) => k.kind).sort()).toEqual(figures.ackByKind.map((k) => k.kind).sort());
}
