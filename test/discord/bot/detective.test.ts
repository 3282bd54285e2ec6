/** A human Detective's result: by DM at dawn, once, and in their own `/mafia status`. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LiveGame } from '../../../src/discord/live-game.ts';
import { messageText, type SimMessage } from '../../../scripts/fakes/discord/index.ts';
import { startWorld, type World } from './harness.ts';
import { nightMenu, openGame, seated, seedWhere, settle, liveGameOf, toNextPhase } from './playing.ts';
import { afterTest, fromNow, tidy } from './shared-world.ts';

/**
 * carol is the Detective and bob Mafia: what she learns of him is known in advance. alice is the
 * Doctor and never acts, so the night lasts until its deadline after carol's pick.
 */
const SEED = seedWhere((roles) => roles.carol === 'detective' && roles.bob === 'mafia' && roles.alice === 'doctor');
const CANNOT_DM_USER = 50007;
const RESULT = '🔎 Your investigation (night 1): **bob** is Mafia.';
/** What these tests wait for takes several Discord round trips: patient on a loaded machine. */
const PATIENT = { timeoutMs: 15_000 };

let w: World;
beforeAll(async () => {
  w = await startWorld({ seed: SEED });
});
afterEach(() => tidy(w));
afterAll(() => w.close());

/** alice hosts, bob and carol join, the AI take seats, alice starts; nobody may be killed on night 1, so carol lives to learn. */
function start(): Promise<LiveGame> {
  return openGame(w, { 'night-one-kill': false }, 'game', { mafiaThread: false, patience: PATIENT });
}

/** carol picks bob from her night menu. */
async function investigateBob(liveGame: LiveGame): Promise<void> {
  const menu = nightMenu(w, 'carol', liveGame.state.id)!;
  const picked = await w.sim
    .user('carol')
    .select(menu, `night:${liveGame.state.id}`, [seated(liveGame.state, 'bob').id])
    .ephemeral(PATIENT);
  expect(messageText(picked)).toMatch(/^Noted/);
  await settle(w, liveGame);
}

const results = (dms: () => SimMessage[]) =>
  dms()
    .map(messageText)
    .filter((t) => t.startsWith('🔎'));

describe('the Detective’s result', () => {
  it('GIVEN carol, a human Detective, WHEN she investigates bob (Mafia) and the night ends THEN at dawn she alone gets it by DM, the channel never, and her /mafia status lists it', async () => {
    const dms = new Map(['alice', 'bob', 'carol'].map((name) => [name, fromNow(() => w.sim.dmsTo(name))]));
    const channel = fromNow(() => w.sim.messagesIn('game'));
    const liveGame = await start();
    await investigateBob(liveGame);
    expect(results(dms.get('carol')!)).toEqual([]);

    await toNextPhase(w, liveGame);
    expect(liveGame.state.phase).toBe('dawn');

    expect(results(dms.get('carol')!)).toEqual([RESULT]);
    for (const name of ['alice', 'bob']) expect(results(dms.get(name)!)).toEqual([]);
    expect(channel().map(messageText).join('\n')).not.toMatch(/investigat|is Mafia/i);

    const status = await w.sim.user('carol').slash('game', 'mafia', { subcommand: 'status' }).ephemeral(PATIENT);
    expect(messageText(status)).toContain('Your investigations\nNight 1: **bob** is Mafia');
    const bobs = await w.sim.user('bob').slash('game', 'mafia', { subcommand: 'status' }).ephemeral(PATIENT);
    expect(messageText(bobs)).not.toContain('investigations');
  });

  it('GIVEN carol’s DMs closed at dawn WHEN her result cannot be sent THEN the host is told once in the channel, the game and its output go on into the day, and /mafia status gives her the result', async () => {
    const channel = fromNow(() => w.sim.messagesIn('game'));
    const liveGame = await start();
    await investigateBob(liveGame);
    const dmChannel = w.sim.dmsTo('carol').at(-1)!.channelId;
    afterTest(w, w.sim.fail({ method: 'POST', route: new RegExp(`^/channels/${dmChannel}/messages$`), status: 403, code: CANNOT_DM_USER }));
    const spoken = fromNow(() => w.sim.webhookMessages('game'));

    await toNextPhase(w, liveGame);
    expect(liveGame.state.phase).toBe('dawn');
    await toNextPhase(w, liveGame);
    expect(liveGame.state.phase).toBe('day');
    // What follows the refused DM still goes out: the AI seats talk by day.
    await w.sim.until(() => spoken().length > 0, { ...PATIENT, description: 'an AI seat speaking by day' });

    const said = channel().map(messageText);
    expect(said.filter((t) => t.includes('could not DM **carol** their investigation result'))).toEqual([
      'I could not DM **carol** their investigation result: allow direct messages from server members (Privacy Settings), then use `/mafia status` here.',
    ]);
    expect(said.some((t) => t.includes('**Dawn 1.**'))).toBe(true);
    const status = await w.sim.user('carol').slash('game', 'mafia', { subcommand: 'status' }).ephemeral(PATIENT);
    expect(messageText(status)).toContain('Night 1: **bob** is Mafia');
  });

  it('GIVEN carol investigated WHEN the bot is down over the night’s deadline, and restarts again by day, THEN her result comes once, when the night resolves on the bot’s return', async () => {
    const dms = fromNow(() => w.sim.dmsTo('carol'));
    const gameId = (await start()).state.id;
    await investigateBob(liveGameOf(w, gameId)!);
    const deadline = liveGameOf(w, gameId)!.state.deadline!;

    await w.restart(() => w.timers.advanceTo(deadline + 1000));
    await w.sim.until(() => liveGameOf(w, gameId) !== undefined, PATIENT);
    // Whatever was due while no bot ran fires now.
    w.timers.advanceTo(w.timers.now());
    await w.sim.until(() => liveGameOf(w, gameId)?.state.phase !== 'night', {
      ...PATIENT,
      description: 'the night resolved after the restart',
    });
    await settle(w, liveGameOf(w, gameId)!);
    await w.sim.until(() => results(dms).length > 0, { ...PATIENT, description: 'her result' });

    await toNextPhase(w, liveGameOf(w, gameId)!);
    expect(liveGameOf(w, gameId)!.state.phase).toBe('day');
    await w.restart();
    await w.sim.until(() => liveGameOf(w, gameId)?.driver != null, PATIENT);
    await settle(w, liveGameOf(w, gameId)!);
    await toNextPhase(w, liveGameOf(w, gameId)!);

    expect(results(dms)).toEqual([RESULT]);
  });
});
