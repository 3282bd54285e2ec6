/** The bot kicked from the server mid-game: Discord sends GUILD_DELETE, then refuses the server's channels. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageText } from '../../../scripts/fakes/discord/index.ts';
import { startWorld, type World } from './harness.ts';
import { openGame, settle } from './playing.ts';
import { fromNow } from './shared-world.ts';

/** A world of its own: once kicked, the bot has no server left to play in. */
let w: World;
beforeAll(async () => {
  w = await startWorld({ seed: 1 });
});
afterAll(() => w.close());

describe('the bot kicked from the server', () => {
  it('GIVEN a running game WHEN the bot is kicked from its server THEN the game is cancelled and stored so, and each person is told by DM that the bot was removed from the server, not that the channel was deleted', async () => {
    const dms = new Map(['alice', 'bob', 'carol'].map((name) => [name, fromNow(() => w.sim.dmsTo(name))]));
    const table = await openGame(w);
    const gameId = table.state.id;

    w.sim.kickBot('Club');
    // Cancelling stores an event and stops the AI seats: generous on a loaded machine.
    await w.sim.until(() => table.state.phase === 'ended', { timeoutMs: 15_000 });
    await settle(w, table);

    const ended = table.state.log.find((e) => e.type === 'game_ended');
    expect(ended?.type === 'game_ended' && ended.payload.outcome).toEqual({
      kind: 'cancelled',
      by: null,
      reason: 'the bot was removed from the server',
    });
    expect((await w.games.getGame(gameId))?.phase).toBe('ended');
    for (const name of ['alice', 'bob', 'carol']) {
      const said = dms.get(name)!().map(messageText);
      expect(said.filter((t) => t.includes('cancelled'))).toEqual([
        '🛑 Your Mafia game in **Club** was cancelled: I was removed from the server. Nothing more will happen in it.',
      ]);
      expect(said.filter((t) => t.includes('I need'))).toEqual([]);
    }
    expect(w.bot.liveGames.live).toHaveLength(0);
  });
});
