import { describe, expect, it } from 'vitest';
import type { LlmConfig } from '../../../src/config.ts';
import { messageText } from '../../../scripts/fakes/discord/index.ts';
import { reply } from '../../../scripts/fakes/llm/fake-llm-server.ts';
import { startFakeOpenAi } from '../../../scripts/fakes/llm/fake-openai.ts';
import { OFFLINE, startTestWorld } from './harness.ts';
import { AI, openGame, settle } from './playing.ts';

/** The bot's settings name a model its provider no longer serves. */
function goneModel(baseURL: string): LlmConfig {
  return { ...OFFLINE, provider: 'openai', openai: { apiKey: 'sk-secret-test-key', baseURL, model: 'gpt-gone' }, timeoutMs: 60_000 };
}

const told = (text: string) => text.includes('`gpt-gone`') && text.includes('OPENAI_MODEL');

describe('a model its provider no longer serves, on the bot', () => {
  it('GIVEN OPENAI_MODEL names a model the provider answers 404 model_not_found for WHEN the AI seats play two nights and a day THEN the channel and the host (by DM) are told once, naming the model and the setting, the seats play on instinct, and no provider text reaches Discord', async () => {
    const fake = await startFakeOpenAi(() => reply.status(404, 'The model `gpt-gone` does not exist or you do not have access to it.'));
    const w = await startTestWorld({ llm: goneModel(fake.baseURL), model: fake, seed: 3 });
    const liveGame = await openGame(w);
    for (let i = 0; i < 6 && liveGame.state.phase !== 'ended' && !(liveGame.state.phase === 'night' && liveGame.state.day >= 2); i++) {
      const { phase, day, deadline } = liveGame.state;
      w.timers.advanceTo(deadline!);
      await w.sim.until(() => liveGame.state.phase !== phase || liveGame.state.day !== day, { timeoutMs: 10_000 });
      await settle(w, liveGame);
    }

    expect(fake.requests.length).toBeGreaterThan(AI.length);
    const channel = w.sim.messagesIn('game').map(messageText);
    expect(channel.filter(told)).toHaveLength(1);
    expect(w.sim.dmsTo('alice').map(messageText).filter(told)).toHaveLength(1);
    for (const name of ['bob', 'carol']) expect(w.sim.dmsTo(name).map(messageText).filter(told)).toHaveLength(0);
    const fellBack = liveGame.state.log.filter((e) => e.type === 'reasoning' && e.payload.fallback === 'model_unavailable');
    expect(fellBack.length).toBeGreaterThan(AI.length);
    // One call per decision (the recap's call asks for no answer format): a gone model is not asked twice for one move.
    expect(fake.requests.filter((r) => r.outputSchema !== undefined)).toHaveLength(fellBack.length);
    // The status as a word of its own: a channel's snowflake may hold the digits 404.
    for (const text of [...channel, ...w.sim.dmsTo('alice').map(messageText)])
      expect(text).not.toMatch(/127\.0\.0\.1|sk-secret|does not exist|(?<!\d)404(?!\d)/);
  });
});
