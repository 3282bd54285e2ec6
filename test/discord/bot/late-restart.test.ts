import { afterEach, describe, expect, it } from 'vitest';
import { houseOpenAi, OUTLASTS_THE_TEST } from '../../support/llm-config.ts';
import type { LiveGame } from '../../../src/discord/live-game.ts';
import type { GameState } from '../../../src/game/index.ts';
import { messageText } from '../../../scripts/fakes/discord/index.ts';
import { reply, type FakeLlmServer } from '../../../scripts/fakes/llm/fake-llm-server.ts';
import { startFakeOpenAi } from '../../../scripts/fakes/llm/fake-openai.ts';
import { startWorld, type World } from './harness.ts';
import { openGame, settle as settleAll, liveGameOf } from './playing.ts';

/** The bot's own work done and delivered; the AI seats' calls hang until the clock ends them. */
const settle = (world: World, liveGame: LiveGame) => settleAll(world, liveGame, { waitForAi: false });

let w: World | undefined;
let fake: FakeLlmServer | undefined;
afterEach(async () => {
  await w?.close();
  await fake?.close();
  w = undefined;
  fake = undefined;
});

/** A game with every model call hanging, moved on deadline by deadline to its first vote (nobody killed the night before). */
async function atTheVote(world: World): Promise<LiveGame> {
  const liveGame = await openGame(world, { 'night-one-kill': false }, 'game', { waitForAi: false });
  while (liveGame.state.phase !== 'vote') {
    const { phase, day, deadline } = liveGame.state;
    world.timers.advanceTo(deadline!);
    await world.sim.until(() => liveGame.state.phase !== phase || liveGame.state.day !== day, { timeoutMs: 30_000 });
    await settle(world, liveGame);
  }
  return liveGame;
}

/** The AI seats alive in the game. */
function aiSeats(state: GameState): string[] {
  return state.players.filter((p) => p.kind === 'ai' && p.alive).map((p) => p.id);
}

/** Who voted in the vote of `day`, as it resolved. */
function voters(state: GameState, day: number): string[] {
  return state.log.flatMap((e) => (e.type === 'vote_resolved' && e.payload.day === day ? e.payload.tally.flatMap((t) => t.voters) : []));
}

/** The seats whose vote of `day` the offline brain placed because the bot came back too late to ask their model. */
function restartStandIns(state: GameState, day: number): string[] {
  return state.log.flatMap((e) =>
    e.type === 'reasoning' &&
    e.payload.fallback === 'restart' &&
    e.payload.phase === 'vote' &&
    e.payload.day === day &&
    e.payload.outcome === 'counted'
      ? [e.payload.playerId]
      : [],
  );
}

describe('a restart late in a phase', () => {
  it('GIVEN a vote whose AI seats wait on hung models WHEN the bot is stopped and comes back 0.9 s before the deadline THEN every AI seat has voted before the vote closes, each vote a stand-in recorded as "restart"', async () => {
    fake = await startFakeOpenAi(() => reply.hang());
    w = await startWorld({ llm: houseOpenAi(fake.baseURL, OUTLASTS_THE_TEST, 'sk-test-key'), seed: 3 });
    const world = w;
    const before = await atTheVote(world);
    const { id, day, deadline } = before.state;
    const ai = aiSeats(before.state);
    expect(Object.keys(before.state.votes)).toEqual([]);

    // Down past the moment the AI votes were due (3 s before the deadline); back 0.9 s before it.
    await world.restart(() => world.timers.advanceTo(deadline! - 900));
    const liveGame = liveGameOf(world, id)!;
    // 0.9 s later: the deadline.
    world.timers.advanceTo(deadline!);
    await world.sim.until(() => liveGame.state.phase !== 'vote' || liveGame.state.day !== day, { timeoutMs: 30_000 });
    await settle(world, liveGame);

    expect(voters(liveGame.state, day).sort()).toEqual([...ai].sort());
    expect(restartStandIns(liveGame.state, day).sort()).toEqual([...ai].sort());
    expect(world.sim.messagesIn('game').map(messageText).join('\n')).not.toContain('Tally: no votes');
  });

  it('GIVEN a vote whose AI seats wait on hung models WHEN the bot comes back after its deadline passed THEN the vote closes at once, only after every AI seat voted, each vote a stand-in recorded as "restart"', async () => {
    fake = await startFakeOpenAi(() => reply.hang());
    w = await startWorld({ llm: houseOpenAi(fake.baseURL, OUTLASTS_THE_TEST, 'sk-test-key'), seed: 3 });
    const world = w;
    const before = await atTheVote(world);
    const { id, day, deadline } = before.state;
    const ai = aiSeats(before.state);

    await world.restart(() => world.timers.advanceTo(deadline! + 60_000));
    const liveGame = liveGameOf(world, id)!;
    // Whatever was due while no bot ran fires now.
    world.timers.advanceTo(world.timers.now());
    await world.sim.until(() => liveGame.state.phase !== 'vote' || liveGame.state.day !== day, { timeoutMs: 30_000 });
    await settle(world, liveGame);

    expect(voters(liveGame.state, day).sort()).toEqual([...ai].sort());
    expect(restartStandIns(liveGame.state, day).sort()).toEqual([...ai].sort());
    // Resolved as the bot came back, not a deadline's length later.
    const resolved = liveGame.state.log.find((e) => e.type === 'vote_resolved' && e.payload.day === day)!;
    expect(resolved.at).toBe(deadline! + 60_000);
  });
});
