/** `npm run bench:discord`: the bot in a process of its own, the simulator here; every acknowledgement split into stages. */
import { describe, expect, it } from 'vitest';
import { describeDiscordBench } from '../../scripts/bench-discord.ts';
import { benchBotProcesses } from '../../scripts/bench-discord-processes.ts';
import { pgliteDirectoryFromTemplate } from '../support/test-database.ts';
import { expectOrderedStages } from './ordered-stages.ts';

describe('npm run bench:discord: one bot process', () => {
  // Real time (the bot's clock is its own), in phases of at least 10 s: three seats with a kill on
  // night 1, so the game ends at the first dawn with one Mafia against one townsperson. The vote
  // is covered by the sharded bench's test (test/sharding/sharded-bench.test.ts).
  it('GIVEN two games on a bot in its own process on a PGlite directory WHEN the bench plays them THEN both end in the database, every interaction was acknowledged and each acknowledgement is split into ordered stages', async () => {
    const figures = await benchBotProcesses({
      games: 2,
      shards: 1,
      humansPerGame: 2,
      aiPerGame: 1,
      createOptions: { roles: 'mafia, townsperson x2', 'night-one-kill': true },
      db: 'pglite',
      // A copy of the run's migrated template: the migrations through the Prisma CLI have their own test (pglite-directory).
      fillPglite: (dataDir) => pgliteDirectoryFromTemplate(dataDir, 'withStarters'),
      floor: false,
    });

    expect(figures.notStarted).toEqual([]);
    expect(figures.completed).toBe(2);
    expect(figures.unanswered).toBe(0);
    expect(figures.ackByKind.map((k) => k.kind)).toEqual(expect.arrayContaining(['/mafia create', 'lobby:join', 'lobby:start']));
    expectOrderedStages(figures);

    const lines = describeDiscordBench(figures, 'smoke').join('\n');
    expect(lines).toContain('games completed: 2 of 2');
    expect(lines).toMatch(/goal p99 < 200 ms: [\d.]+×/);
    expect(lines).toMatch(/gateway → the bot's router: p50 \d+ ms, p99 \d+ ms, max \d+ ms/);
  }, 600_000);
});
