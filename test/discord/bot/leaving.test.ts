/** A person who leaves the server mid-game does not stay seated forever. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getRole } from '../../../src/game/index.ts';
import { messageText } from '../../../scripts/fakes/discord/index.ts';
import { startWorld, type World } from './harness.ts';
import { HUMANS, humansAct, openGame, seated, settle, toNextPhase } from './playing.ts';
import { fromNow, tidy } from './shared-world.ts';

/** One world for the file (every game dealt by seed 5): after each test whoever left is back in the server and the game is ended. */
let w: World;
beforeAll(async () => {
  w = await startWorld({ seed: 5 });
});
afterEach(() => tidy(w));
afterAll(() => w.close());

describe('leaving the server', () => {
  it('GIVEN a running game WHEN bob leaves the server at night THEN at daybreak he is out as "left the game", his role shown, and the game goes on without him', async () => {
    const channel = fromNow(() => w.sim.messagesIn('game'));
    const liveGame = await openGame(w);
    const bob = seated(liveGame.state, 'bob');
    expect(bob.alive).toBe(true);

    w.sim.removeMember('Club', 'bob');
    await toNextPhase(w, liveGame);
    expect(liveGame.state.phase).toBe('dawn');
    expect(seated(liveGame.state, 'bob').alive).toBe(true);
    await toNextPhase(w, liveGame);
    await settle(w, liveGame);

    const died = liveGame.state.log.find((e) => e.type === 'player_died' && e.payload.playerId === bob.id);
    expect(died?.type === 'player_died' && died.payload).toMatchObject({ cause: 'left', role: bob.role });
    expect(seated(liveGame.state, 'bob').alive).toBe(false);
    const role = getRole(bob.role!).name;
    expect(
      channel()
        .map(messageText)
        .some((t) => t.includes('bob left the game') && t.includes(role)),
    ).toBe(true);
  });

  it('GIVEN the host chose that an AI plays on WHEN bob leaves the server THEN at daybreak his seat is an AI, alive, his role kept secret, and it plays from then on', async () => {
    const inChannel = fromNow(() => w.sim.messagesIn('game'));
    const liveGame = await openGame(w, { 'if-someone-leaves': 'ai' });
    const bob = seated(liveGame.state, 'bob');

    w.sim.removeMember('Club', 'bob');
    while (liveGame.state.phase !== 'day') await toNextPhase(w, liveGame);
    await settle(w, liveGame);

    expect(seated(liveGame.state, 'bob')).toMatchObject({ kind: 'ai', alive: true, role: bob.role });
    const channel = inChannel().map(messageText);
    expect(channel.filter((t) => t.includes('bob left the server; an AI plays on in their seat'))).toHaveLength(1);
    expect(channel.some((t) => t.includes(getRole(bob.role!).name) && t.includes('bob'))).toBe(false);
    // Its next decision is the AI's: it reasons, and what it decided is on the record.
    const reasoned = () => liveGame.state.log.some((e) => e.type === 'reasoning' && e.payload.playerId === bob.id);
    const over = () => liveGame.state.phase === 'ended';
    while (!reasoned() && !over()) await toNextPhase(w, liveGame);
    expect(liveGame.state.log.some((e) => e.type === 'reasoning' && e.payload.playerId === bob.id)).toBe(true);
  });

  it('GIVEN a running game WHEN the people with a night action pick it by DM THEN at daybreak Discord is asked only about the others (a pick is playing, as good as a word in the channel)', async () => {
    const liveGame = await openGame(w);
    const gameId = liveGame.state.id;
    const asked = (name: string) =>
      w.sim.requests('GET', '/guilds/:guildId/members/:userId').filter((r) => r.path.endsWith(`/${w.sim.user(name).id}`)).length;
    const before = Object.fromEntries(HUMANS.map((name) => [name, asked(name)]));

    const pickers = new Set<string>();
    await humansAct(w, gameId, new Set(), (name) => Promise.resolve(void pickers.add(name)));
    expect(pickers.size).toBeGreaterThan(0);
    while (liveGame.state.phase !== 'day' && liveGame.state.phase !== 'ended') await toNextPhase(w, liveGame);
    await settle(w, liveGame);

    for (const name of HUMANS) {
      if (!seated(liveGame.state, name).alive) continue;
      expect(asked(name) - before[name]!, name).toBe(pickers.has(name) ? 0 : 1);
    }
  });

  it('GIVEN a lobby WHEN its host leaves the server THEN at the next join the longest-seated person becomes host, is told so in the channel, and can start the game', async () => {
    const channel = fromNow(() => w.sim.messagesIn('game'));
    const lobby = await w.sim.user('alice').slash('game', 'mafia', { subcommand: 'create' }).public();
    const liveGame = w.bot.liveGames.live[0]!;
    await w.sim.user('bob').click(lobby, `lobby:join:${liveGame.state.id}`).updated();

    w.sim.removeMember('Club', 'alice');
    await w.sim.user('carol').click(lobby, `lobby:join:${liveGame.state.id}`).updated();
    await w.sim.until(() => liveGame.hostId === w.sim.user('bob').id);
    await w.bot.idle();

    expect(
      channel()
        .map(messageText)
        .filter((t) => t.includes('**bob** is the host now')),
    ).toHaveLength(1);
    expect(liveGame.state.players.map((p) => p.name)).not.toContain('alice');
    expect((await w.games.getGame(liveGame.state.id))?.hostId).toBe(w.sim.user('bob').id);
    for (const persona of ['Sherlock Holmes', 'Hercule Poirot', 'Miss Marple']) {
      await w.sim.user('bob').slash('game', 'mafia', { subcommand: 'add-ai', options: { persona } }).ephemeral();
    }
    await w.sim.user('bob').slash('game', 'mafia', { subcommand: 'start' }).public();
    expect(liveGame.state.phase).not.toBe('lobby');
  });
});
