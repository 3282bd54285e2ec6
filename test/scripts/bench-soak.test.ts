import { describe, expect, it } from 'vitest';
import { benchSoak, describeSoak, type SoakSample } from '../../scripts/bench-soak.ts';
import { openTestDatabase } from '../support/test-database.ts';

/** What must be back where it was after the first wave, whatever the number of games played since. */
const FLAT = ['channels', 'guildChannels', 'users', 'members', 'webhooks', 'seenMembers'] as const;
/** What nothing holds once every game is over. */
const EMPTY = [
  'threads',
  'messages',
  'liveGames',
  'loading',
  'background',
  'outputQueues',
  'toldHosts',
  'pacedEdits',
  'pacedTyping',
  'timers',
];

function pick(sample: SoakSample, names: readonly string[]): Record<string, number | undefined> {
  return Object.fromEntries(names.map((name) => [name, sample.sizes[name]]));
}

describe('npm run bench -- --only soak: many games on one bot', () => {
  it('GIVEN 15 games played five at a time in the same five channels WHEN the last is over THEN every one ended, and what the bot and discord.js hold is what they held after the first five', async () => {
    // On a copy of the migrated template (the starter pack in it), as a test bot plays: not a fresh directory migrated for the run.
    const f = await benchSoak({ games: 15, atOnce: 5, baselineAfter: 5, database: await openTestDatabase('withStarters') });

    expect(f.games).toBe(15);
    expect(f.unacknowledged).toBe(0);
    expect(f.samples.map((s) => s.games)).toEqual([5, 10, 15]);
    expect(pick(f.end, FLAT)).toEqual(pick(f.baseline, FLAT));
    expect(pick(f.end, EMPTY)).toEqual(Object.fromEntries(EMPTY.map((name) => [name, 0])));

    const lines = describeSoak(f).join('\n');
    expect(lines).toContain('games completed: 15 of 15');
    expect(lines).toMatch(/growth -?[\d.]+ % {2}\[target ≤ 10\.0 %: [\d.∞]+× target/);
  });
});
