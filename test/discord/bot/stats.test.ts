import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GameRepository } from '../../../src/db/game-repository.ts';
import * as engine from '../../../src/game/index.ts';
import type { Change, GameError, GameState } from '../../../src/game/index.ts';
import type { Result } from '../../../src/result.ts';
import { messageText } from '../../../scripts/fakes/discord/index.ts';
import { T0 } from '../../support/test-game.ts';
import { startWorld, type World } from './harness.ts';
import { afterTest, fromNow, tidy } from './shared-world.ts';

/** One world for the file: the games a test stored are deleted after it. */
let w: World;
beforeAll(async () => {
  w = await startWorld();
});
afterEach(() => tidy(w));
afterAll(() => w.close());

function must(result: Result<Change, GameError>): GameState {
  if (!result.ok) throw new Error(result.error.message);
  return result.value.state;
}

/** A game of this server's alice, bob and an AI persona that the Mafia won on night 1, stored as the bot stores games (until the test is over). */
async function storeMafiaWin(id: string): Promise<GameState> {
  afterTest(w, () => w.db.prisma.game.deleteMany({ where: { id } }));
  let state = must(
    engine.createGame({
      gameId: id,
      seed: 3,
      settings: { setup: { kind: 'custom', roles: ['mafia', 'townsperson', 'townsperson'] } },
      at: T0,
    }),
  );
  for (const name of ['alice', 'bob']) {
    const userId = w.sim.user(name).id;
    state = must(engine.join(state, { player: { id: userId, name, kind: 'human', userId }, at: T0 }));
  }
  state = must(engine.join(state, { player: { id: 'ai-1', name: 'Miss Marple', kind: 'ai', personaId: 'persona-marple' }, at: T0 }));
  state = must(engine.start(state, { at: T0 }));
  const mafia = state.players.find((p) => p.role === 'mafia')!;
  const victim = state.players.find((p) => p.role === 'townsperson')!;
  state = must(engine.act(state, { actorId: mafia.id, targetId: victim.id, at: T0 + 1 }));
  expect(state.phase).toBe('ended');
  const stored = await new GameRepository(w.games).create(state, {
    guildId: w.sim.guild().id,
    channelId: w.sim.channel('game').id,
    hostId: w.sim.user('alice').id,
  });
  expect(stored.ok).toBe(true);
  return state;
}

describe('/mafia stats', () => {
  it("GIVEN two finished games in this server WHEN alice asks for bob's stats THEN she alone sees bob's record and the server's", async () => {
    const channel = fromNow(() => w.sim.messagesIn('game'));
    const games = [await storeMafiaWin('g-1'), await storeMafiaWin('g-2')];
    const bob = w.sim.user('bob');
    const reply = await w.sim
      .user('alice')
      .slash('game', 'mafia', { subcommand: 'stats', options: { user: bob } })
      .ephemeral();
    const [mine, server] = reply.embeds as { title: string; description: string; fields: { name: string; value: string }[] }[];

    expect(mine!.title).toBe('bob: Mafia record');
    const bobWins = games.filter((g) => g.players.find((p) => p.userId === bob.id)!.role === 'mafia').length;
    expect(mine!.description).toBe(`2 games, ${bobWins} won (${Math.round((bobWins / 2) * 100)}%).`);
    expect(mine!.fields.map((f) => f.name)).toEqual(['By side', 'Roles played', 'Survived', 'Rating']);
    expect(mine!.fields.at(-1)!.value).toBe('Not rated here (people opt in with `/mafia leaderboard rate-me:true`).');

    expect(server!.title).toBe('Club: Mafia in this server');
    expect(server!.description).toBe('2 games finished.');
    const field = (name: string) => server!.fields.find((f) => f.name === name)!.value;
    expect(field('Winners')).toContain('Mafia: 2 (100%)');
    expect(field('Average length')).toBe('1.0 days');
    expect(field('Most played personas')).toBe('1. Miss Marple (2)');
    // The games were stored behind the bot's back: they are rated at its next start or game end.
    expect(field('Best rated personas')).toBe('No rated games yet.');
    // Nobody else saw it.
    expect(channel().filter((m) => m.embeds.length > 0)).toEqual([]);
  });

  it('GIVEN no finished games WHEN carol asks for her own stats THEN she is told there are none yet; WHEN asked in DMs THEN she is told stats live in a server', async () => {
    const reply = await w.sim.user('carol').slash('game', 'mafia', { subcommand: 'stats' }).ephemeral();
    expect(JSON.stringify(reply.embeds)).toContain('No finished games in this server yet');
    expect(JSON.stringify(reply.embeds)).toContain('carol: Mafia record');
    expect(messageText(await w.sim.user('carol').slash('dm', 'mafia', { subcommand: 'stats' }).ephemeral())).toMatch(
      /per server: use `\/mafia stats` in a server channel/,
    );
  });
});
