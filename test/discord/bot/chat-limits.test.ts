/** What people type by day is bounded for the AI players, and the person is told, once. */
import { afterEach, describe, expect, it } from 'vitest';
import { messageText } from '../../../scripts/fakes/discord/index.ts';
import { startWorld, type World } from './harness.ts';
import { openGame, seated, settle, toNextPhase } from './playing.ts';

let w: World | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const LIMIT_NOTE = /said all the AI players will read this phase/;

describe('chat limits', () => {
  it('GIVEN a game of 2 messages a phase WHEN alice posts four by day THEN two reach the game, she is told once by DM, and an over-long message in the next phase is cut with a note', async () => {
    w = await startWorld({ seed: 3 });
    const liveGame = await openGame(w, { 'chat-messages': 2 });
    while (liveGame.state.phase !== 'day') await toNextPhase(w, liveGame);
    const alice = seated(liveGame.state, 'alice');
    if (!alice.alive) return expect.fail('alice died in the night of this seed; pick another seed');
    const spoken = () => liveGame.state.log.filter((e) => e.type === 'speech' && e.payload.playerId === alice.id);

    for (const text of ['one', 'two', 'three', 'four']) w.sim.user('alice').say('game', text);
    await w.sim.until(() => w!.sim.dmsTo('alice').filter((m) => LIMIT_NOTE.test(messageText(m))).length === 1);
    await settle(w, liveGame);

    expect(spoken().map((e) => e.type === 'speech' && e.payload.text)).toEqual(['one', 'two']);
    expect(w.sim.dmsTo('alice').filter((m) => LIMIT_NOTE.test(messageText(m)))).toHaveLength(1);

    await toNextPhase(w, liveGame);
    w.sim.user('alice').say('game', 'x'.repeat(2500), { nitro: true });
    await w.sim.until(() => w!.sim.dmsTo('alice').some((m) => messageText(m).includes('Only the first 2,000 characters')));
    expect(spoken().at(-1)?.type === 'speech' && spoken().at(-1)?.payload).toMatchObject({ text: 'x'.repeat(2000) });
  });
});
