/** The bot kicked from the server mid-game: Discord sends GUILD_DELETE, then refuses the server's channels. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageText } from '../../../scripts/fakes/discord/index.ts';
import { startWorld, type World } from './harness.ts';
import type { LiveGame } from '../../../src/discord/live-game.ts';
import { AI, settle } from './playing.ts';
import { fromNow } from './shared-world.ts';

/** A world of its own: once kicked, the bot has no server left to play in. */
let w: World;
beforeAll(async () => {
  w = await startWorld({ seed: 1 });
});
afterAll(() => w.close());

/** What these tests wait for takes several Discord round trips: patient on a loaded machine. */
const PATIENT = { timeoutMs: 15_000 };

/** alice hosts, bob and carol join, the AI take seats, alice starts; returns once night 1 is under way. */
async function start(): Promise<LiveGame> {
  const lobby = await w.sim.user('alice').slash('game', 'mafia', { subcommand: 'create' }).public(PATIENT);
  const liveGame = w.bot.liveGames.live[0]!;
  for (const name of ['bob', 'carol']) await w.sim.user(name).click(lobby, `lobby:join:${liveGame.state.id}`).updated(PATIENT);
  for (const persona of AI)
    await w.sim.user('alice').slash('game', 'mafia', { subcommand: 'add-ai', options: { persona } }).ephemeral(PATIENT);
  await w.sim.user('alice').click(lobby, `lobby:start:${liveGame.state.id}`).updated(PATIENT);
  await w.sim.until(() => liveGame.driver !== null && liveGame.mafiaThreadId !== null, PATIENT);
  await settle(w, liveGame);
  return liveGame;
}

describe('the bot kicked from the server', () => {
  it('GIVEN a running game WHEN the bot is kicked from its server THEN the game is cancelled and stored so, and each person is told by DM that the bot was removed from the server, not that the channel was deleted', async () => {
    const dms = new Map(['alice', 'bob', 'carol'].map((name) => [name, fromNow(() => w.sim.dmsTo(name))]));
    const liveGame = await start();
    const gameId = liveGame.state.id;

    w.sim.kickBot('Club');
    await w.sim.until(() => liveGame.state.phase === 'ended', PATIENT);
    await settle(w, liveGame);

    const ended = liveGame.state.log.find((e) => e.type === 'game_ended');
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
