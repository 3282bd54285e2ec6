import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveGame } from '../../../src/discord/live-game.ts';
import { DEAD_NOT_TAKEN } from '../../../src/interactions/mafia/chat.ts';
import { content } from '../../persona/fixtures.ts';
import { messageText, type InteractionHandle } from '../../../scripts/fakes/discord/index.ts';
import { forgedMenu, forgeOption, nightMenu, openGame, options, seated, seedWhere, settle, toNextPhase, voteMessageOf } from './playing.ts';
import { startWorld, type World } from './harness.ts';

// One Mafia (carol) and one Detective (alice) among the people, the AI seats plain townspeople:
// the people's clicks alone decide the night, so alice can be killed on purpose.
const ROLES = 'mafia, detective, townsperson x5';
const SEED = seedWhere((r) => r.carol === 'mafia' && r.alice === 'detective', 7, ROLES);

let w: World;
beforeAll(async () => {
  w = await startWorld({ seed: SEED });
});
afterAll(() => w.close());

/**
 * A move that must be refused: an ephemeral reply matching `reason`, and the game exactly as it
 * was (the session keeps the same state object only when nothing was accepted).
 */
async function refused(liveGame: LiveGame, act: () => InteractionHandle, reason: RegExp | string): Promise<void> {
  await settle(w, liveGame);
  const before = liveGame.state;
  const reply = await act().ephemeral();
  expect(messageText(reply)).toMatch(reason);
  await w.bot.idle();
  expect(liveGame.state).toBe(before);
  expect(liveGame.state.log.length).toBe(before.log.length);
}

describe('bad moves in a running game: an ephemeral reply a person understands, and nothing changes', () => {
  it('GIVEN bob’s private persona WHEN alice hosts and tries to seat it THEN it is not offered and refused by name and by id', async () => {
    const guildId = w.sim.guild().id;
    const secret = await w.personas.create(
      { userId: w.sim.user('bob').id, guildId, canManageServer: false },
      { scope: { kind: 'private' }, content: content({}, 'Secret Sam') },
    );
    if (!secret.ok) throw new Error(secret.error.message);
    await w.sim.user('alice').slash('other', 'mafia', { subcommand: 'create' }).public();
    const liveGame = w.bot.liveGames.live.find((t) => t.channelId === w.sim.channel('other').id)!;

    // bob may see his own persona; alice is not offered it.
    const offered = (who: string) =>
      w.sim
        .user(who)
        .autocomplete('other', 'mafia', { subcommand: 'add-ai', options: { persona: 'Secret' }, focused: 'persona' })
        .choices();
    expect((await offered('bob')).map((c) => c.name)).toContain('Secret Sam');
    expect((await offered('alice')).map((c) => c.name)).not.toContain('Secret Sam');
    for (const typed of ['Secret Sam', secret.value.id]) {
      await refused(
        liveGame,
        () => w.sim.user('alice').slash('other', 'mafia', { subcommand: 'add-ai', options: { persona: typed } }),
        /that you may use here/,
      );
    }
    expect(liveGame.state.players.map((p) => p.name)).toEqual(['alice']);

    // In DMs the lobby commands say where they belong.
    for (const [subcommand, opts] of [
      ['add-ai', { persona: 'Sherlock Holmes' }],
      ['remove', { player: 'bob' }],
    ] as const) {
      expect(messageText(await w.sim.user('alice').slash('dm', 'mafia', { subcommand, options: opts }).ephemeral())).toMatch(
        /server channel/,
      );
    }
    await w.sim.user('alice').slash('other', 'mafia', { subcommand: 'end' }).public();
    await w.sim.until(() => !w.bot.liveGames.live.some((t) => t.channelId === w.sim.channel('other').id));
  });

  it('GIVEN a game of alice (Detective) and carol (Mafia) WHEN outsiders, the dead and stale menus try to play THEN each is refused and the game goes on', async () => {
    const liveGame = await openGame(w, { roles: ROLES });
    const gameId = liveGame.state.id;
    const night = `night:${gameId}`;
    const vote = `vote:${gameId}`;
    const alice = seated(liveGame.state, 'alice');
    const bob = seated(liveGame.state, 'bob');
    const carol = seated(liveGame.state, 'carol');

    // Night 1: mod, who does not play, picks from a copy of alice's menu; a second game is opened here.
    const modMenu = await forgedMenu(w, liveGame, 'alice', 'mod');
    await refused(liveGame, () => w.sim.user('mod').select(modMenu, night, [carol.id]), 'You are not playing in this game.');
    await refused(liveGame, () => w.sim.user('carol').slash('game', 'mafia', { subcommand: 'create' }), /already has a game open/);

    // alice investigates, carol kills alice: the night is over.
    const aliceMenu = nightMenu(w, 'alice', gameId)!;
    const carolMenu = nightMenu(w, 'carol', gameId)!;
    expect(messageText(await w.sim.user('alice').select(aliceMenu, night, [carol.id]).ephemeral())).toMatch(/^Noted/);
    expect(messageText(await w.sim.user('carol').select(carolMenu, night, [alice.id]).ephemeral())).toMatch(/^Noted/);
    await w.sim.until(() => liveGame.state.phase !== 'night');
    await settle(w, liveGame);
    expect(seated(liveGame.state, 'alice').alive).toBe(false);

    // Dawn, then day 1: the night menus are stale now.
    await toNextPhase(w, liveGame);
    expect(liveGame.state.phase).toBe('day');
    await refused(liveGame, () => w.sim.user('carol').select(carolMenu, night, [bob.id]), 'Night actions can only be taken at night.');
    // The dead are muted in the channel; alice owns the server, so she still can write: not taken, told privately.
    const dmsBefore = w.sim.dmsTo('alice').length;
    const logBefore = liveGame.state.log.length;
    w.sim.user('alice').say('game', 'It was carol, I checked her!');
    await w.sim.until(() => w.sim.dmsTo('alice').length > dmsBefore);
    await settle(w, liveGame);
    expect(messageText(w.sim.dmsTo('alice').at(-1)!)).toBe(DEAD_NOT_TAKEN);
    expect(liveGame.state.log.slice(logBefore).some((e) => e.type === 'speech' && e.payload.playerId === alice.id)).toBe(false);

    // Someone deletes the channel's webhook mid-game: the next AI speech makes a new one and still arrives.
    const [hook] = w.sim.webhooksIn('game');
    expect(hook).toBeDefined();
    w.sim.deleteWebhook(hook!.id);
    const spokenBefore = w.sim.webhookMessages('game').length;
    const ai = liveGame.state.players.filter((p) => p.kind === 'ai');
    w.sim.user('bob').say('game', `${ai.map((p) => p.name).join(', ')}: which of you is lying?`);
    await w.sim.until(() => w.sim.webhookMessages('game').length > spokenBefore);
    await settle(w, liveGame);
    expect(w.sim.webhooksIn('game').map((h) => h.id)).not.toContain(hook!.id);
    expect(w.sim.webhooksIn('game')).toHaveLength(1);
    const aiIds = new Set(ai.map((p) => p.id));
    const aiSpeeches = liveGame.state.log.filter(
      (e) => e.type === 'speech' && e.payload.channel !== 'mafia' && aiIds.has(e.payload.playerId),
    );
    expect(w.sim.webhookMessages('game').filter((m) => m.channelId === w.sim.channel('game').id)).toHaveLength(aiSpeeches.length);

    // The vote: the dead, outsiders, a dead target and an unknown one.
    await toNextPhase(w, liveGame);
    expect(liveGame.state.phase).toBe('vote');
    const voteMessage = voteMessageOf(w, liveGame);
    const openComponents = structuredClone(voteMessage.components);
    expect(options(voteMessage, vote)).not.toContain(alice.id);
    await refused(liveGame, () => w.sim.user('alice').select(voteMessage, vote, [carol.id]), 'You are dead; the dead do not vote.');
    await refused(liveGame, () => w.sim.user('mod').select(voteMessage, vote, [carol.id]), 'You are not playing in this game.');
    forgeOption(voteMessage, vote, alice.id);
    await refused(liveGame, () => w.sim.user('carol').select(voteMessage, vote, [alice.id]), 'alice is already dead.');
    forgeOption(voteMessage, vote, '999999999999999999');
    await refused(
      liveGame,
      () => w.sim.user('carol').select(voteMessage, vote, ['999999999999999999']),
      'That player is not in this game.',
    );
    expect(liveGame.state.votes).not.toHaveProperty(alice.id);

    // The vote closes; a client that still shows the old vote message tries it.
    await toNextPhase(w, liveGame);
    expect(['vote', 'ended']).not.toContain(liveGame.state.phase);
    const closed = w.sim.messagesIn('game').find((m) => m.id === voteMessage.id)!;
    expect(closed.components).toHaveLength(0);
    (closed as { components: unknown }).components = openComponents;
    await refused(liveGame, () => w.sim.user('carol').select(closed, vote, [bob.id]), 'Votes are only taken during the vote.');

    // Night 2: dead alice's menu from night 1, and mod's forged one.
    while (liveGame.state.phase !== 'night' && liveGame.state.phase !== 'ended') await toNextPhase(w, liveGame);
    expect(liveGame.state.phase).toBe('night');
    await refused(liveGame, () => w.sim.user('alice').select(aliceMenu, night, [carol.id]), 'You are dead; the dead take no actions.');
    await refused(liveGame, () => w.sim.user('mod').select(modMenu, night, [carol.id]), 'You are not playing in this game.');

    // The only call Discord refused: the AI speech through the deleted webhook (then sent through a new one).
    expect(w.sim.failedRequests().map((r) => `${r.method} ${r.route} ${r.status}`)).toEqual([
      expect.stringMatching(/^POST \/webhooks\/.* 404$/),
    ]);
  });
});
