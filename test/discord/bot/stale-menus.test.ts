/** Menus belong to one phase of one day: an old one changes nothing, and says so. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { messageText, type SimMessage } from '../../../scripts/fakes/discord/index.ts';
import { startWorld, type World } from './harness.ts';
import { HUMANS, nightMenu, openGame, options, seated, seedWhere, toNextPhase, voteMessageOf } from './playing.ts';
import { afterTest, tidy } from './shared-world.ts';

/** One world for the file; each game is dealt by the seed its test sets, and ended after the test. */
let seed = 1;
let w: World;
beforeAll(async () => {
  w = await startWorld({ seed: () => seed });
});
afterEach(() => tidy(w));
afterAll(() => w.close());

/** All three people are town with no night action, so nobody's menu decides a night. */
const SEED = seedWhere(
  (roles) => Object.values(roles).every((r) => r === 'townsperson'),
  1,
  'mafia,detective,doctor,townsperson,townsperson,townsperson,townsperson',
);

describe('stale menus', () => {
  it('GIVEN the vote message of day 1 WHEN someone uses it in the day 2 vote THEN it is refused as closed and no vote is cast', async () => {
    seed = SEED;
    const liveGame = await openGame(w, { roles: 'mafia,detective,doctor,townsperson,townsperson,townsperson,townsperson' });
    const gameId = liveGame.state.id;
    const at = (phase: string, day: number) => liveGame.state.phase === phase && liveGame.state.day === day;
    while (!at('vote', 1)) await toNextPhase(w, liveGame);
    const dayOne: SimMessage = voteMessageOf(w, liveGame);
    // The edits that would close this vote fail, so its menu stays on screen: the stale menu a person can still use.
    afterTest(w, w.sim.fail({ method: 'PATCH', route: new RegExp(`/messages/${dayOne.id}$`), status: 403, code: 50013 }));
    while (!at('vote', 2)) {
      expect(liveGame.state.phase).not.toBe('ended');
      await toNextPhase(w, liveGame);
    }
    const voter = HUMANS.find((name) => seated(liveGame.state, name).alive)!;
    const target = options(dayOne, `vote:${gameId}`).find((v) => v !== seated(liveGame.state, voter).id && v !== 'no_lynch')!;
    const before = liveGame.state.log.length;

    const answer = await w.sim.user(voter).select(dayOne, `vote:${gameId}`, [target]).ephemeral();

    expect(messageText(answer)).toMatch(/This vote is closed/);
    expect(liveGame.state.log.slice(before).some((e) => e.type === 'vote_cast')).toBe(false);
    expect(seated(liveGame.state, voter).id in liveGame.state.votes).toBe(false);
  });

  it('GIVEN a night menu of night 1 WHEN used on night 2 THEN it is refused and no action is taken', async () => {
    // The first seed (of those dealing carol the Doctor) where she lives to night 2: deterministic, like every seed.
    for (let from = 1; ;) {
      seed = seedWhere((roles) => roles.carol === 'doctor', from);
      from = seed + 1;
      const liveGame = await openGame(w);
      const gameId = liveGame.state.id;
      const nightOne = nightMenu(w, 'carol', gameId)!;
      const at = (phase: string, day: number) => liveGame.state.phase === phase && liveGame.state.day === day;
      while (!at('night', 2) && liveGame.state.phase !== 'ended') await toNextPhase(w, liveGame);
      if (!at('night', 2) || !seated(liveGame.state, 'carol').alive) {
        // This deal is of no use: its game ends (as after a test), and the next seed's game takes the channel.
        await tidy(w);
        continue;
      }
      const before = liveGame.state.log.length;

      const answer = await w.sim
        .user('carol')
        .select(nightOne, `night:${gameId}`, [options(nightOne, `night:${gameId}`)[0]!])
        .ephemeral();

      expect(messageText(answer)).toMatch(/from a night that is over/);
      expect(liveGame.state.log.slice(before).some((e) => e.type === 'night_action')).toBe(false);
      return;
    }
  });
});
