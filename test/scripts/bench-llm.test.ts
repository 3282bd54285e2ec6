import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_MODELS } from '../../src/models.ts';
import { benchProviderGame } from '../../scripts/bench-llm.ts';

/*
 * The LLM bench's games run on the game's clock against the wire fakes: the models' latency costs
 * game time and the fakes' caches run on it. Its figures must be the same for the same seed.
 */
describe('a bench game on the game clock', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('GIVEN one seed WHEN the Anthropic game is played twice THEN every figure is the same, the gaps between a seat’s calls included', async () => {
    // The SDK warns on every request to a model it knows is deprecated; the bench tells that once.
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const job = { provider: 'anthropic', model: DEFAULT_MODELS.anthropic, level: 'verbose', seed: 2 } as const;

    const first = await benchProviderGame(job);
    const second = await benchProviderGame(job);

    expect(second).toEqual(first);
    expect(first.reasks + first.toolRounds).toBeGreaterThan(0);
    // Game time passed between a seat's calls: the day's discussion and its vote are minutes apart.
    expect(Math.max(...first.seatGapsMs)).toBeGreaterThan(4 * 60_000);
  });

  it('GIVEN two OpenAI models with the same cache minimum WHEN each plays a seed THEN the games and their tokens are the same, so the bench prices one game at both prices', async () => {
    const mini = await benchProviderGame({ provider: 'openai', model: 'gpt-4.1-mini', level: 'typical', seed: 5 });
    const nano = await benchProviderGame({ provider: 'openai', model: 'gpt-4.1-nano', level: 'typical', seed: 5 });

    expect(nano).toEqual(mini);
  });
});
