import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GameRepository } from '../../../src/db/game-repository.ts';
import * as engine from '../../../src/game/index.ts';
import type { Change, GameError, GameState } from '../../../src/game/index.ts';
import type { Result } from '../../../src/result.ts';
import { messageText, type SimMessage } from '../../../scripts/fakes/discord/index.ts';
import { T0 } from '../../support/test-game.ts';
import { startWorld, type World } from './harness.ts';
import { AI, humansAct, openGame, liveGameOf, toNextPhase } from './playing.ts';

/** One world for the file: a game on it costs less than a new world. */
let w: World;
beforeAll(async () => {
  w = await startWorld({ seed: 7 });
});
afterAll(() => w.close());

interface Embed {
  title: string;
  description?: string;
  fields: { name: string; value: string }[];
}
const embedsOf = (m: SimMessage) => m.embeds as unknown as Embed[];
const field = (e: Embed | undefined, name: string) => e?.fields.find((f) => f.name === name)?.value;

async function board(name = 'alice', options: Record<string, boolean> = {}): Promise<SimMessage> {
  return w.sim.user(name).slash('game', 'mafia', { subcommand: 'leaderboard', options }).ephemeral();
}

/** The board's lines, each "rank. who: skill …". */
const lines = (m: SimMessage) => embedsOf(m)[0]?.description?.split('\n') ?? [];
/** "N games" of each line, by who. */
const gamesOf = (m: SimMessage): Record<string, number> =>
  Object.fromEntries(lines(m).map((l): [string, number] => [/^\d+\. (.+?): /.exec(l)?.[1] ?? l, Number(/, (\d+) games?,/.exec(l)?.[1])]));

/** alice hosts, bob and carol join, four starter personas sit; the people play their moves until the game ends. */
async function playGame(): Promise<GameState> {
  const liveGame = await openGame(w);
  const used = new Set<string>();
  let last = liveGame;
  for (let step = 0; step < 80 && last.state.phase !== 'ended'; step++) {
    await humansAct(w, liveGame.state.id, used);
    last = liveGameOf(w, liveGame.state.id) ?? last;
    await toNextPhase(w, last);
  }
  expect(last.state.phase).toBe('ended');
  await w.bot.idle();
  return last.state;
}

function must(result: Result<Change, GameError>): GameState {
  if (!result.ok) throw new Error(result.error.message);
  return result.value.state;
}

describe('/mafia leaderboard', () => {
  it('GIVEN alice opts in and bob does not WHEN a game with four AI personas ends THEN the board ranks the four personas and alice, not bob; /mafia stats shows alice her rating and the best-rated personas', async () => {
    const empty = await board();
    expect(messageText(empty)).toContain('No rated games in this server yet');
    const optIn = await board('alice', { 'rate-me': true });
    expect(optIn.content).toMatch(/^You are now rated in this server/);
    expect(field(embedsOf(optIn)[0], 'You')).toBe('You are rated from your next finished game here.');

    const state = await playGame();
    const after = await board('bob');
    const games = gamesOf(after);
    expect(Object.keys(games).sort()).toEqual([...AI.map((n) => `**${n}** (AI)`), `<@${w.sim.user('alice').id}>`].sort());
    expect(Object.values(games)).toEqual([1, 1, 1, 1, 1]);
    expect(lines(after).map((l) => Number(l.split('.')[0]))).toEqual([1, 2, 3, 4, 5]);
    // A winner's line says it won.
    const aliceWon =
      state.outcome?.kind === 'win' &&
      engine.getRole(state.players.find((p) => p.name === 'alice')!.role!).faction === state.outcome.faction;
    expect(lines(after).find((l) => l.includes(w.sim.user('alice').id))).toMatch(aliceWon ? /1 game, 1 won$/ : /1 game, 0 won$/);
    expect(field(embedsOf(after)[0], 'You')).toBe('You are not rated here. `/mafia leaderboard rate-me:true` to be.');

    const stats = await w.sim.user('alice').slash('game', 'mafia', { subcommand: 'stats' }).ephemeral();
    const [mine, server] = embedsOf(stats);
    expect(field(mine, 'Rating')).toMatch(/^#[1-5] of 5: skill -?\d+\.\d \(μ \d+\.\d ± \d+\.\d\)\.$/);
    expect(field(server, 'Best rated personas')?.split('\n')).toHaveLength(3);
    const bobs = await w.sim
      .user('alice')
      .slash('game', 'mafia', { subcommand: 'stats', options: { user: w.sim.user('bob') } })
      .ephemeral();
    expect(field(embedsOf(bobs)[0], 'Rating')).toBe('Not rated here (people opt in with `/mafia leaderboard rate-me:true`).');
  });

  it('GIVEN that rated game WHEN the bot restarts THEN nothing is rated twice; GIVEN a game that ended with no bot to rate it WHEN the bot starts THEN it is rated once, however often it restarts', async () => {
    const before = gamesOf(await board());
    await w.restart();
    await w.bot.idle();
    expect(gamesOf(await board())).toEqual(before);

    // A finished game stored as the bot stores games, as if the process died before rating it.
    let state = must(
      engine.createGame({
        gameId: 'ended-offline',
        seed: 3,
        settings: { setup: { kind: 'custom', roles: ['mafia', 'townsperson', 'townsperson'] } },
        at: T0,
      }),
    );
    state = must(engine.join(state, { player: { id: 'h1', name: 'alice', kind: 'human', userId: w.sim.user('alice').id }, at: T0 }));
    const marple = await w.personas.getByName(
      { userId: w.sim.user('alice').id, guildId: w.sim.guild().id, canManageServer: false },
      'Miss Marple',
    );
    if (!marple.ok) throw new Error(marple.error.message);
    state = must(engine.join(state, { player: { id: 'ai-1', name: 'Miss Marple', kind: 'ai', personaId: marple.value.id }, at: T0 }));
    state = must(engine.join(state, { player: { id: 'h2', name: 'bob', kind: 'human', userId: w.sim.user('bob').id }, at: T0 }));
    state = must(engine.start(state, { at: T0 }));
    const mafia = state.players.find((p) => p.role === 'mafia')!;
    state = must(engine.act(state, { actorId: mafia.id, targetId: state.players.find((p) => p.role === 'townsperson')!.id, at: T0 + 1 }));
    expect(state.phase).toBe('ended');
    const stored = await new GameRepository(w.games).create(state, {
      guildId: w.sim.guild().id,
      channelId: w.sim.channel('other').id,
      hostId: w.sim.user('alice').id,
    });
    expect(stored.ok).toBe(true);

    for (let restart = 0; restart < 2; restart++) {
      await w.restart();
      await w.bot.idle();
      const now = gamesOf(await board());
      expect(now['**Miss Marple** (AI)']).toBe(before['**Miss Marple** (AI)']! + 1);
      expect(now[`<@${w.sim.user('alice').id}>`]).toBe(before[`<@${w.sim.user('alice').id}>`]! + 1);
      expect(now['**Sherlock Holmes** (AI)']).toBe(before['**Sherlock Holmes** (AI)']);
    }
  });

  it('GIVEN alice is rated WHEN she opts out THEN she is off the board and told her rating is forgotten; WHEN asked in DMs THEN ratings live in a server', async () => {
    const out = await board('alice', { 'rate-me': false });
    expect(out.content).toBe('You are no longer rated in this server; your rating here is forgotten.');
    expect(lines(out).some((l) => l.includes(w.sim.user('alice').id))).toBe(false);
    expect(lines(out)).toHaveLength(4);
    expect(messageText(await w.sim.user('carol').slash('dm', 'mafia', { subcommand: 'leaderboard' }).ephemeral())).toMatch(
      /Ratings are kept per server/,
    );
  });
});
