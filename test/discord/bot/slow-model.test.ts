import { describe, expect, it } from 'vitest';
import { houseOpenAi, OUTLASTS_THE_TEST } from '../../support/llm-config.ts';
import { dueBy } from '../../../src/agents/driver/deadlines.ts';
import type { LiveGame } from '../../../src/discord/live-game.ts';
import * as engine from '../../../src/game/index.ts';
import { messageText } from '../../../scripts/fakes/discord/index.ts';
import { reply } from '../../../scripts/fakes/llm/fake-llm-server.ts';
import { startFakeOpenAi } from '../../../scripts/fakes/llm/fake-openai.ts';
import { startTestWorld, type World } from './harness.ts';
import { AI, openGame, settle as settleAll } from './playing.ts';

/** The bot's own work done and delivered; the AI seats' calls may hang until the clock ends them. */
const settle = (world: World, liveGame: LiveGame) => settleAll(world, liveGame, { waitForAi: false });

/** The AI seats that owe a move in this phase: a night action, or a vote. */
function owing(liveGame: LiveGame): string[] {
  const s = liveGame.state;
  return s.players
    .filter((p) => p.kind === 'ai' && p.alive && (s.phase === 'night' ? engine.hasNightAction(s, p) : s.phase === 'vote'))
    .map((p) => p.id);
}

/** Whether the seat's move of this phase is in the log since the phase began. */
function moved(liveGame: LiveGame, playerId: string): boolean {
  const log = liveGame.state.log;
  const start = log.findLastIndex((e) => e.type === 'phase_started');
  return log
    .slice(start)
    .some(
      (e) =>
        (e.type === 'vote_cast' && e.payload.voterId === playerId) ||
        (e.type === 'night_action' && e.payload.actorId === playerId) ||
        (e.type === 'mafia_proposal' && e.payload.actorId === playerId),
    );
}

/** The clock reaches the moment AI moves are due; they must all be in before it reaches the deadline. */
async function throughPhase(world: World, liveGame: LiveGame): Promise<void> {
  const { phase, day, deadline } = liveGame.state;
  const due = owing(liveGame);
  world.timers.advanceTo(dueBy(liveGame.state)!);
  await world.sim.until(() => due.every((id) => moved(liveGame, id)) || liveGame.state.phase !== phase, { timeoutMs: 10_000 });
  expect(liveGame.state.phase).toBe(phase);
  world.timers.advanceTo(deadline!);
  await world.sim.until(() => liveGame.state.phase !== phase || liveGame.state.day !== day, { timeoutMs: 10_000 });
  await settle(world, liveGame);
}

describe('a model that never answers, on the bot', () => {
  it('GIVEN every model call hangs WHEN nights and votes come THEN each AI seat moves on instinct before the deadline, the channel is told once per seat in plain words, no provider detail reaches Discord, and the director’s cut marks the fallbacks', async () => {
    const fake = await startFakeOpenAi(() => reply.hang());
    const w = await startTestWorld({ llm: houseOpenAi(fake.baseURL, OUTLASTS_THE_TEST, 'sk-secret-test-key'), model: fake, seed: 3 });
    const liveGame = await openGame(w, {}, 'game', { waitForAi: false });
    for (let i = 0; i < 12 && liveGame.state.phase !== 'ended' && !(liveGame.state.phase === 'vote' && liveGame.state.day >= 2); i++) {
      if (liveGame.state.phase === 'night' || liveGame.state.phase === 'vote') await throughPhase(w, liveGame);
      else {
        const { phase, day, deadline } = liveGame.state;
        w.timers.advanceTo(deadline!);
        await w.sim.until(() => liveGame.state.phase !== phase || liveGame.state.day !== day, { timeoutMs: 10_000 });
        await settle(w, liveGame);
      }
    }
    expect(fake.requests.length).toBeGreaterThan(0);
    const channel = w.sim.messagesIn('game').map(messageText);
    let told = 0;
    for (const name of AI) {
      const seat = liveGame.state.players.find((p) => p.name === name)!;
      const asked = liveGame.state.log.some(
        (e) => e.type === 'reasoning' && e.payload.playerId === seat.id && e.payload.fallback === 'timeout',
      );
      if (!asked) continue;
      expect(channel.filter((text) => text.includes(`${name}'s model is not answering; ${name} plays on instinct for now.`))).toHaveLength(
        1,
      );
      told++;
    }
    expect(told).toBe(AI.length);
    for (const text of channel) expect(text).not.toMatch(/127\.0\.0\.1|sk-secret|aborted|ECONN|status/i);

    await w.sim.user('alice').slash('game', 'mafia', { subcommand: 'end' }).reply();
    await w.sim.until(() => liveGame.state.phase === 'ended');
    await settle(w, liveGame);
    const cut = w.sim
      .messagesIn('game')
      .flatMap((m) => m.attachments)
      .find((a) => a.filename.startsWith('directors-cut'));
    const text = cut?.data.toString('utf8') ?? '';
    expect(text).toContain('(offline fallback: timeout)');
    expect(text).not.toMatch(/127\.0\.0\.1|sk-secret/);
  });
});
