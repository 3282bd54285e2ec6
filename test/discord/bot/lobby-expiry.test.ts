/**
 * Lobbies do not last for ever (issue 26): one idle for LOBBY_IDLE_MINUTES closes and its channel
 * is told, also across a restart; and one person hosts at most LOBBIES_PER_HOST open lobbies.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isEphemeral, messageText, type SimMessage } from '../../../scripts/fakes/discord/index.ts';
import type { LiveGame } from '../../../src/discord/live-game.ts';
import { startWorld, type World } from './harness.ts';
import { fromNow, tidy } from './shared-world.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const CLOSED = 'the lobby closed after an hour without activity; /mafia create opens a new one';

let w: World;
beforeAll(async () => {
  w = await startWorld();
  // Two more channels of the server, for a host of three lobbies and a fourth refused.
  for (const name of ['third', 'fourth']) w.sim.addChannel(w.sim.guild('Club'), { name });
});
afterAll(() => w.close());
afterEach(() => tidy(w));

async function openLobby(user: string, channel = 'game'): Promise<{ lobby: SimMessage; liveGame: LiveGame }> {
  const lobby = await w.sim.user(user).slash(channel, 'mafia', { subcommand: 'create' }).public();
  return { lobby, liveGame: w.bot.liveGames.liveInChannel(w.sim.channel(channel).id)! };
}

/** The channel's message now, as people see it (edited since, perhaps). */
const current = (channel: string, id: string) => w.sim.messagesIn(channel).find((m) => m.id === id)!;

async function status(gameId: string): Promise<string | undefined> {
  return (await w.db.prisma.game.findUnique({ where: { id: gameId }, select: { status: true } }))?.status;
}

/** Moves the clock and lets what it set off finish. */
async function clockAt(at: number): Promise<void> {
  w.timers.advanceTo(at);
  await w.bot.idle();
}

describe('idle lobbies', () => {
  it('GIVEN a lobby nobody touches WHEN an hour passes THEN it closes: the channel is told, its buttons do nothing, and it is stored as called off', async () => {
    // GIVEN alice opens a lobby and nobody does anything in it
    const said = fromNow(() => w.sim.messagesIn('game'));
    const { lobby, liveGame } = await openLobby('alice');
    const opened = w.timers.now();
    const gameId = liveGame.state.id;
    // What a client that misses the coming update still shows.
    const staleButtons = structuredClone(lobby.components);
    const threadsBefore = w.sim.threadsOf('game').length;

    // WHEN a minute short of an hour passes THEN it is still open
    await clockAt(opened + HOUR - MINUTE);
    expect(liveGame.state.phase).toBe('lobby');

    // WHEN the hour is up THEN the channel is told why, plainly
    await clockAt(opened + HOUR);
    await w.sim.until(() => said().some((m) => messageText(m).includes(CLOSED)));
    expect(liveGame.state.phase).toBe('ended');
    // AND the lobby message shows a closed game without buttons
    await w.sim.until(() => current('game', lobby.id).components.length === 0);
    // AND it is stored as ended, so no restart brings it back, and the channel is free again
    expect(await status(gameId)).toBe('ended');
    expect(w.bot.liveGames.liveInChannel(w.sim.channel('game').id)).toBeUndefined();
    // AND no director's cut: nothing was played
    await w.bot.idle();
    expect(w.sim.threadsOf('game')).toHaveLength(threadsBefore);
    expect(said().some((m) => m.attachments.length > 0)).toBe(false);
    // AND a Join clicked where the old buttons still show is refused privately and seats nobody
    const closed = current('game', lobby.id);
    (closed as { components: unknown }).components = staleButtons;
    // (the click is acknowledged while the channel's game is looked up, then answered privately)
    const refused = await w.sim.user('bob').click(closed, `lobby:join:${gameId}`).followUp();
    expect(isEphemeral(refused)).toBe(true);
    expect(messageText(refused)).toBe('There is no game in this channel. Open one with `/mafia create`.');
    expect(liveGame.state.players.map((p) => p.name)).toEqual(['alice']);
  });

  it('GIVEN a lobby WHEN someone joins 40 minutes in THEN it stays open an hour from that join, not from its creation', async () => {
    // GIVEN alice opens a lobby
    const { lobby, liveGame } = await openLobby('alice');
    const opened = w.timers.now();

    // WHEN bob joins 40 minutes later
    await clockAt(opened + 40 * MINUTE);
    await w.sim.user('bob').click(lobby, `lobby:join:${liveGame.state.id}`).updated();

    // THEN an hour after the creation it is still open, and a minute short of an hour after the join too
    await clockAt(opened + HOUR);
    expect(liveGame.state.phase).toBe('lobby');
    await clockAt(opened + 40 * MINUTE + HOUR - MINUTE);
    expect(liveGame.state.phase).toBe('lobby');

    // AND an hour after the join it closes
    await clockAt(opened + 40 * MINUTE + HOUR);
    expect(liveGame.state.phase).toBe('ended');
    expect(await status(liveGame.state.id)).toBe('ended');
  });

  it('GIVEN lobbies WHEN the bot restarts THEN their idle time runs on from their last activity, and one that ran out while it was down closes right after start', async () => {
    // GIVEN a lobby in #game, joined by bob 30 minutes in, and one in #other nobody touches
    const { lobby, liveGame } = await openLobby('alice');
    const opened = w.timers.now();
    const stale = await openLobby('carol', 'other');
    const saidInOther = fromNow(() => w.sim.messagesIn('other'));
    await clockAt(opened + 30 * MINUTE);
    await w.sim.user('bob').click(lobby, `lobby:join:${liveGame.state.id}`).updated();

    // WHEN the bot is down from 50 minutes to 70 minutes in (the #other lobby's hour passes meanwhile)
    await w.restart(() => w.timers.advanceTo(opened + 70 * MINUTE));
    await w.bot.idle();

    // THEN the #other lobby closed right after start, told in its channel and stored
    await w.sim.until(() => saidInOther().some((m) => messageText(m).includes(CLOSED)));
    expect(await status(stale.liveGame.state.id)).toBe('ended');
    expect(w.bot.liveGames.liveInChannel(w.sim.channel('other').id)).toBeUndefined();

    // AND the #game lobby is back without anyone asking, still open, and closes an hour after bob's join
    const back = w.bot.liveGames.liveInChannel(w.sim.channel('game').id)!;
    expect(back.state.id).toBe(liveGame.state.id);
    await clockAt(opened + 30 * MINUTE + HOUR - MINUTE);
    expect(back.state.phase).toBe('lobby');
    await clockAt(opened + 30 * MINUTE + HOUR);
    expect(back.state.phase).toBe('ended');
    expect(await status(liveGame.state.id)).toBe('ended');
  });
});

describe('lobbies per host', () => {
  it('GIVEN alice hosts three open lobbies WHEN she creates a fourth THEN she is refused privately, told the limit and where hers are, and nothing is created', async () => {
    // GIVEN alice hosts lobbies in #game, #other and #third
    const hosted = ['game', 'other', 'third'];
    for (const channel of hosted) await openLobby('alice', channel);
    const games = await w.db.prisma.game.count();
    const inFourth = fromNow(() => w.sim.messagesIn('fourth'));

    // WHEN she runs /mafia create in #fourth
    const refused = await w.sim.user('alice').slash('fourth', 'mafia', { subcommand: 'create' }).ephemeral();

    // THEN only she sees why, with the limit and her lobbies named
    expect(isEphemeral(refused)).toBe(true);
    const where = hosted.map((c) => `<#${w.sim.channel(c).id}>`).join(', ');
    expect(messageText(refused)).toBe(
      `You already host 3 open lobbies, the most one person may at once: ${where}. ` +
        'Start one of them, or `/mafia end` one there, before creating another. An idle lobby also closes by itself.',
    );
    // AND nothing was created: no game stored or held, nothing posted in #fourth
    await w.bot.idle();
    expect(await w.db.prisma.game.count()).toBe(games);
    expect(w.bot.liveGames.liveInChannel(w.sim.channel('fourth').id)).toBeUndefined();
    expect(inFourth()).toEqual([]);

    // AND the limit is hers alone: bob may open a lobby there
    const { liveGame } = await openLobby('bob', 'fourth');
    expect(liveGame.hostId).toBe(w.sim.user('bob').id);
  });
});
