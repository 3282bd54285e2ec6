/** `npm run bench:discord -- --shards K --db postgres`: the bench's sharded run works end to end (its figures are for the README, not asserted). */
import { expect, it } from 'vitest';
import { benchShardedGames } from '../../scripts/bench-discord-sharded.ts';
import { describeDiscordBench } from '../../scripts/bench-discord.ts';
import { describeSharded } from './shard-processes.ts';

describeSharded('the Discord bench on shard processes', () => {
  // Real time (the processes' clocks are their own): a game of 10 s phases lasts one to a few minutes.
  it('GIVEN two games in guilds Discord routes to shard 0 and shard 1 WHEN the bench plays them on two shard processes THEN both end in the database and every interaction was acknowledged', async () => {
    const figures = await benchShardedGames({
      games: 2,
      shards: 2,
      // Five seats, the fewest a game has: one Mafia, so it ends in fewer 10-second phases.
      aiPerGame: 3,
      db: 'postgres',
      ...(process.env.TEST_DATABASE_URL && { postgresUrl: process.env.TEST_DATABASE_URL }),
      floor: false,
    });

    expect(figures.notStarted).toEqual([]);
    expect(figures.completed).toBe(2);
    expect(figures.unanswered).toBe(0);
    // Night menus are not asserted: both people of a game may be plain townspeople.
    expect(figures.ackByKind.map((k) => k.kind)).toEqual(expect.arrayContaining(['/mafia create', 'lobby:start', 'vote']));
    expect(describeDiscordBench(figures, 'smoke').join('\n')).toContain('games completed: 2 of 2');
  }, 600_000);
});
