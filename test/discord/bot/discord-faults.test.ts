/** Discord saying no: 403 without a permission, 404 for what was deleted, 5xx that outlast the retries. */
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import * as engine from '../../../src/game/index.ts';
import { isMafia } from '../../../src/game/index.ts';
import type { LiveGame } from '../../../src/discord/live-game.ts';
import { messageText, Permissions } from '../../../scripts/fakes/discord/index.ts';
import { startWorld, type World } from './harness.ts';
import { AI, nightMenu, seedWhere, settle, toNextPhase } from './playing.ts';
import { afterTest, fromNow, tidy } from './shared-world.ts';

const MISSING_PERMISSIONS = 50013;
/** bob is Mafia and carol the Doctor: both act at night, and bob needs the Mafia's chat. */
const SEED = seedWhere((roles) => roles.bob === 'mafia' && roles.carol === 'doctor');

/**
 * One world for the file: after each test its faults are lifted and its game ended. The test that
 * deletes a channel deletes #other, which no other test here plays in; the bot refused webhooks
 * in a channel never asks again there, so that test has a world of its own.
 */
let w: World;
beforeAll(async () => {
  w = await startWorld({ seed: SEED });
});
afterEach(() => tidy(w));
afterAll(() => w.close());

/** alice hosts, bob and carol join, the AI take seats, alice starts; nothing waits for a Mafia thread. */
async function start(world: World, channel = 'game'): Promise<LiveGame> {
  const lobby = await world.sim.user('alice').slash(channel, 'mafia', { subcommand: 'create' }).public();
  const liveGame = world.bot.liveGames.live[0]!;
  for (const name of ['bob', 'carol']) await world.sim.user(name).click(lobby, `lobby:join:${liveGame.state.id}`).updated();
  for (const persona of AI)
    await world.sim.user('alice').slash(channel, 'mafia', { subcommand: 'add-ai', options: { persona } }).ephemeral();
  await world.sim.user('alice').click(lobby, `lobby:start:${liveGame.state.id}`).updated();
  // A world's first game seats its AI in several seconds on a loaded machine (measured up to 6.5 s).
  await world.sim.until(() => liveGame.driver !== null, { timeoutMs: 30_000, description: 'the AI seated' });
  await settle(world, liveGame);
  return liveGame;
}

const channelText = (world: World) => world.sim.messagesIn('game').map(messageText);
/** The texts of what is posted in #game from now on (earlier tests' games posted there too). */
function channelTextFromNow(): () => string[] {
  const posted = fromNow(() => w.sim.messagesIn('game'));
  return () => posted().map(messageText);
}

describe('Discord faults during a game', () => {
  it('GIVEN the bot may not create private threads WHEN the game starts THEN night still falls, every night menu goes out, the host is told once what is missing, and the Mafia chat by DM', async () => {
    const channel = channelTextFromNow();
    const dmsToBob = fromNow(() => w.sim.dmsTo('bob'));
    afterTest(w, w.sim.fail({ method: 'POST', route: '/channels/:channelId/threads', status: 403, code: MISSING_PERMISSIONS }));

    const liveGame = await start(w);

    expect(liveGame.mafiaThreadId).toBeNull();
    expect(channel().some((t) => t.includes('Night 1'))).toBe(true);
    expect(nightMenu(w, 'carol', liveGame.state.id)).toBeDefined();
    expect(nightMenu(w, 'bob', liveGame.state.id)).toBeDefined();
    const notices = channel().filter((t) => t.includes('no private thread'));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain('Create Private Threads');
    expect(
      dmsToBob()
        .map(messageText)
        .some((t) => t.includes('The Mafia are')),
    ).toBe(true);

    // An AI Mafia's words at night reach bob by DM.
    const aiMafia = liveGame.state.players.find((p) => p.kind === 'ai' && isMafia(p.role))!;
    const said = await liveGame.submit((s, at) =>
      engine.speak(s, { playerId: aiMafia.id, channel: 'mafia', text: 'Take the quiet one.', at }),
    );
    expect(said.ok).toBe(true);
    await settle(w, liveGame);
    expect(dmsToBob().map(messageText)).toContain(`**${aiMafia.name} (Mafia):** Take the quiet one.`);

    // And bob's DM to the bot is his team chat: it enters the game as Mafia speech.
    w.sim.user('bob').dm('I say we hit the Doctor.');
    await w.sim.until(() =>
      liveGame.state.log.some((e) => e.type === 'speech' && e.payload.channel === 'mafia' && e.payload.text === 'I say we hit the Doctor.'),
    );
  });

  it('GIVEN the bot lacks Manage Webhooks WHEN the AI players speak by day THEN their words are posted by the bot under their names, the host is told once, and the webhooks are not asked for again', async () => {
    // A world of its own: the bot refused webhooks in a channel does not ask again there while it runs.
    const own = await startWorld({ seed: SEED });
    onTestFinished(() => own.close());
    own.sim.fail({ route: '/channels/:channelId/webhooks', status: 403, code: MISSING_PERMISSIONS });
    const liveGame = await start(own);

    while (liveGame.state.phase !== 'vote') await toNextPhase(own, liveGame);

    const aiNames = liveGame.state.players.filter((p) => p.kind === 'ai').map((p) => p.name);
    const aiIds = new Set(liveGame.state.players.filter((p) => p.kind === 'ai').map((p) => p.id));
    // Lines said with a vote stand in the vote message instead.
    const withVote = (e: (typeof liveGame.state.log)[number]) =>
      e.type === 'speech' &&
      liveGame.state.log.some((v) => v.type === 'vote_cast' && v.payload.voterId === e.payload.playerId && v.at === e.at);
    const spoken = liveGame.state.log.filter(
      (e) => e.type === 'speech' && e.payload.channel === 'town' && aiIds.has(e.payload.playerId) && !withVote(e),
    );
    expect(spoken.length).toBeGreaterThan(0);
    const posted = channelText(own).filter((t) => aiNames.some((n) => t.startsWith(`**${n}:**`)));
    expect(posted.length).toBe(spoken.length);
    expect(channelText(own).filter((t) => t.includes('Manage Webhooks'))).toHaveLength(1);
    expect(own.sim.requests(undefined, '/channels/:channelId/webhooks').length).toBeLessThanOrEqual(2);
  });

  it('GIVEN the bot denied Manage Webhooks in its game channel WHEN an admin grants it mid-game THEN the AI players speak through the webhook again, under their own names', async () => {
    // A world of its own: which channels refused webhooks is remembered for the bot's run.
    const own = await startWorld({ seed: SEED });
    onTestFinished(() => own.close());
    own.sim.setBotOverwrite('game', { deny: Permissions.ManageWebhooks });
    const liveGame = await start(own);
    while (liveGame.state.phase !== 'day') await toNextPhase(own, liveGame);
    const ai = liveGame.state.players.find((p) => p.kind === 'ai' && p.alive)!;
    const say = async (text: string) => {
      const said = await liveGame.submit((s, at) => engine.speak(s, { playerId: ai.id, channel: 'town', text, at }));
      expect(said.ok).toBe(true);
      await settle(own, liveGame);
    };

    await say('Before the grant.');
    expect(channelText(own)).toContain(`**${ai.name}:** Before the grant.`);
    expect(channelText(own).filter((t) => t.includes('Manage Webhooks'))).toHaveLength(1);

    own.sim.setBotOverwrite('game', { allow: Permissions.ManageWebhooks });
    const channelId = own.sim.channel('game').id;
    await own.sim.until(
      () => {
        const channel = own.client.channels.cache.get(channelId);
        const me = channel && 'guild' in channel ? channel.guild.members.me : null;
        return !!me && !!channel && 'permissionsFor' in channel && channel.permissionsFor(me).has(Permissions.ManageWebhooks);
      },
      { description: 'discord.js to see the grant' },
    );
    await say('After the grant.');

    expect(own.sim.webhookMessages('game').map(messageText)).toContain('After the grant.');
    expect(channelText(own).filter((t) => t.includes('After the grant.'))).toEqual(['After the grant.']);
  });

  it('GIVEN a running game WHEN its channel is deleted THEN the game is cancelled and stored so, each person is told by DM, and nothing more is posted', async () => {
    const dms = new Map(['alice', 'bob', 'carol'].map((name) => [name, fromNow(() => w.sim.dmsTo(name))]));
    const liveGame = await start(w, 'other');
    const gameId = liveGame.state.id;

    w.sim.deleteChannel('other');
    await w.sim.until(() => liveGame.state.phase === 'ended');
    await settle(w, liveGame);

    const ended = liveGame.state.log.find((e) => e.type === 'game_ended');
    expect(ended?.type === 'game_ended' && ended.payload.outcome).toMatchObject({ kind: 'cancelled' });
    expect((await w.games.getGame(gameId))?.phase).toBe('ended');
    for (const name of ['alice', 'bob', 'carol']) {
      expect(
        dms.get(name)!()
          .map(messageText)
          .some((t) => t.includes('was cancelled: its channel was deleted')),
      ).toBe(true);
    }
    const posts = w.sim.requests('POST', '/channels/:channelId/messages').filter((c) => c.path.includes(liveGame.channelId));
    const afterDelete = posts.filter((c) => c.status === 404);
    expect(afterDelete.length).toBeLessThanOrEqual(1);
    expect(w.bot.liveGames.live).toHaveLength(0);
  });

  it('GIVEN Discord fails one announcement with 5xx past its retries WHEN the vote opens THEN the vote message still goes out and the host is told once', async () => {
    const channel = channelTextFromNow();
    const liveGame = await start(w);
    while (liveGame.state.phase !== 'day') await toNextPhase(w, liveGame);
    // discord.js tries a message 4 times (3 retries): this many failures outlast one message.
    w.sim.fail({ method: 'POST', route: '/channels/:channelId/messages', status: 502, times: 4 });
    await toNextPhase(w, liveGame);

    expect(liveGame.state.phase).toBe('vote');
    expect(liveGame.voteMessageId).not.toBeNull();
    expect(channel().filter((t) => t.includes('Discord did not take'))).toHaveLength(1);
  });
});
