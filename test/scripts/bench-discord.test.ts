import { describe, expect, it } from 'vitest';
import { benchDiscordGames, describeDiscordBench } from '../../scripts/bench-discord.ts';
import { openTestDatabase } from '../support/test-database.ts';

describe('npm run bench: concurrent games through the Discord simulator', () => {
  it('GIVEN three lobbies opened by slash command WHEN the bench plays them all at once THEN every game ends and the figures cover every interaction', async () => {
    // On a copy of the migrated template (the starter pack in it), as a test bot plays: not a fresh database migrated for the run.
    const figures = await benchDiscordGames({ games: 3, database: await openTestDatabase('withStarters') });

    expect(figures.notStarted).toEqual([]);
    expect(figures.completed).toBe(3);
    // 3 creates, 3 joins, 15 seats, 3 starts, then night picks and votes.
    expect(figures.interactions).toBeGreaterThan(24);
    expect(figures.ackByKind.map((k) => k.kind)).toEqual(
      expect.arrayContaining(['/mafia create', 'lobby:join', '/mafia add-ai', 'lobby:start', 'vote']),
    );
    expect(figures.restCalls).toBeGreaterThan(0);

    const lines = describeDiscordBench(figures, 'smoke').join('\n');
    expect(lines).toContain('games completed: 3 of 3');
    expect(lines).toMatch(/goal p99 < 200 ms: [\d.]+×/);
  });
});
