import type { LlmConfig } from '../../src/config.ts';

/** A bot on OpenAI's wire at `baseURL` (a fake) playing `gpt-house`, with no Anthropic key and no budget, unless `over` says otherwise. */
export function houseOpenAi(baseURL: string, over: Partial<LlmConfig> = {}, apiKey = 'test-key'): LlmConfig {
  return {
    provider: 'openai',
    openai: { apiKey, baseURL, model: 'gpt-house' },
    anthropic: { apiKey: undefined, baseURL: undefined, model: 'claude-house' },
    timeoutMs: 5000,
    maxToolRounds: 1,
    dailyTokenBudget: 0,
    ...over,
  };
}

/** Longer than any test: only the game's deadlines (on the manual clock) end a hung call. */
export const OUTLASTS_THE_TEST = { timeoutMs: 600_000 } as const;
