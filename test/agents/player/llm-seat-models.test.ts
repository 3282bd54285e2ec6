import { afterEach, describe, expect, it } from 'vitest';
import { heuristicBrain } from '../../../src/agents/heuristic/brain.ts';
import type { AiSeat } from '../../../src/agents/ai-seats.ts';
import { llmBrain } from '../../../src/agents/player/llm-brain.ts';
import { plainPersona } from '../../../src/agents/player/persona-prompt.ts';
import { llmSummarizer } from '../../../src/agents/player/summarizer.ts';
import { seatThinker } from '../../../src/agents/player/think.ts';
import { HOUSE_PLAYERS } from '../../../src/agents/seats.ts';
import { createAnthropicProvider } from '../../../src/llm/anthropic-provider.ts';
import { createOpenAiProvider } from '../../../src/llm/openai-provider.ts';
import type { LlmProvider } from '../../../src/llm/types.ts';
import { playHeadless } from '../../../src/session/headless-game.ts';
import { FORMAT_OUTPUT, startFakeAnthropic } from '../../../scripts/fakes/llm/fake-anthropic.ts';
import { reply, type FakeLlmServer, type FakeRequest } from '../../../scripts/fakes/llm/fake-llm-server.ts';
import { startFakeOpenAi } from '../../../scripts/fakes/llm/fake-openai.ts';
import { playingModel } from '../../../scripts/fakes/llm/playing-model.ts';

let fake: FakeLlmServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/**
 * A playing model that, on the first vote it is asked, reads the transcript first, and whose first
 * vote after that names nobody at the table, so that decision takes a tool round and a re-ask.
 */
function readsThenErrsOnce() {
  let read = false;
  let erred = false;
  return playingModel({
    override: (request: FakeRequest) => {
      if (read || !request.lastUserText.includes('# Your task: Vote') || request.toolResults.length > 0) return undefined;
      read = true;
      return reply.tool('read_transcript', { day: 1 });
    },
    pick: (options, request) => {
      if (erred || !read || request.toolResults.length === 0) return options[0]!;
      erred = true;
      return 'Nobody Real';
    },
  });
}

const MODELS = [
  { wire: 'anthropic', model: 'claude-sonnet-5-5' },
  { wire: 'anthropic', model: 'claude-opus-5-5' },
  { wire: 'openai', model: 'gpt-6-luna' },
] as const;

describe.each(MODELS)('seats on $model through the real SDK against its wire fake', ({ wire, model }) => {
  async function start(): Promise<LlmProvider> {
    fake = await (wire === 'openai' ? startFakeOpenAi : startFakeAnthropic)(readsThenErrsOnce());
    // As the bot talks to the provider itself: OpenAI's own token field and cache key.
    const options = { apiKey: 'test-key', baseURL: fake.baseURL, timeoutMs: 30_000, maxRetries: 0, logLevel: 'off' as const };
    return wire === 'openai'
      ? createOpenAiProvider({ ...options, tokenLimitField: 'max_completion_tokens', promptCacheKey: true })
      : createAnthropicProvider(options);
  }

  it('GIVEN a game of five seats WHEN a vote takes a read_transcript round and a re-ask THEN every decision and recap is the model’s and the fake refused nothing', async () => {
    const provider = await start();
    const seats: AiSeat[] = HOUSE_PLAYERS.slice(0, 5).map((voice, i) => ({
      id: `seat${i + 1}`,
      name: voice.name,
      offline: heuristicBrain(voice),
      brain: llmBrain({ persona: plainPersona(voice), model, think: seatThinker({ provider }), fallback: heuristicBrain(voice) }),
    }));

    const result = await playHeadless({
      gameId: 'contracts',
      seed: 3,
      settings: { rules: { maxQuietCycles: 2 } },
      seats,
      summarizer: llmSummarizer({ provider, model }),
    });

    if (!result.ok) throw new Error(result.error);
    const reasonings = result.value.log.flatMap((e) => (e.type === 'reasoning' ? [e.payload] : []));
    expect(reasonings.every((r) => r.fallback === undefined)).toBe(true);
    expect(reasonings.some((r) => r.tools?.[0]?.name === 'read_transcript')).toBe(true);
    expect(fake!.requests.some((r) => r.lastUserText.startsWith('Your answer was not accepted'))).toBe(true);
    expect(result.value.log.some((e) => e.type === 'day_summary' && e.payload.text.startsWith('A tense day'))).toBe(true);
    // Every request was answered: none was refused with a 400.
    expect(fake!.usages).toHaveLength(fake!.requests.length);
    const decisions = fake!.requests.filter((r) => r.outputSchema !== undefined);
    if (wire === 'anthropic') expect(decisions.every((r) => r.outputName === FORMAT_OUTPUT && !r.tools.includes('decision'))).toBe(true);
    else expect(decisions.every((r) => r.body['reasoning_effort'] === 'none')).toBe(true);
  });
});
