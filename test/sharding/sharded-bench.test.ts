/** `npm run bench:discord -- --shards K --db postgres`: the bench's sharded run works end to end (its figures are for docs/benchmarks.md, not asserted). */
import { expect, it } from 'vitest';
import { benchBotProcesses } from '../../scripts/bench-discord-processes.ts';
import { describeDiscordBench } from '../../scripts/bench-discord.ts';
import { expectOrderedStages } from '../scripts/ordered-stages.ts';
import { describeSharded } from './shard-processes.ts';

describeSharded('the Discord bench on shard processes', () => {
  // Real time (the processes' clocks are their own), in phases of at least 10 s: the game is the
  // shortest that still has a vote, three seats with no kill on night 1, so the first lynch ends it
  // (or, with no lynch, the second night's kill): about 20 s where the bench's own games take minutes.
  it('GIVEN two games in guilds Discord routes to shard 0 and shard 1 WHEN the bench plays them on two shard processes THEN both end in the database, every interaction was acknowledged and each acknowledgement is split into ordered stages', async () => {
    const figures = await benchBotProcesses({
      games: 2,
      shards: 2,
      humansPerGame: 2,
      aiPerGame: 1,
      createOptions: { roles: 'mafia, townsperson x2', 'night-one-kill': false },
      db: 'postgres',
      ...(process.env.TEST_DATABASE_URL && { postgresUrl: process.env.TEST_DATABASE_URL }),
      floor: false,
    });

    expect(figures.notStarted).toEqual([]);
    expect(figures.completed).toBe(2);
    expect(figures.unanswered).toBe(0);
    // Night menus are not asserted: nobody acts on the first night, and the first vote may end the game.
    expect(figures.ackByKind.map((k) => k.kind)).toEqual(expect.arrayContaining(['/mafia create', 'lobby:join', 'lobby:start', 'vote']));
    expectOrderedStages(figures);
    expect(describeDiscordBench(figures, 'smoke', 2).join('\n')).toMatch(/games completed: 2 of 2[\s\S]*goal p99 < 1000 ms/);
  }, 600_000);
});
