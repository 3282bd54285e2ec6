import { afterEach, describe, expect, it } from 'vitest';
import { memoryLedger, TokenBudget } from '../../../src/agents/budget.ts';
import { heuristicBrain } from '../../../src/agents/heuristic/brain.ts';
import { createAnthropicProvider } from '../../../src/agents/llm/anthropic-provider.ts';
import { createOpenAiProvider } from '../../../src/agents/llm/openai-provider.ts';
import type { CallRecord } from '../../../src/agents/llm/tool-loop.ts';
import type { LlmProvider } from '../../../src/agents/llm/types.ts';
import { llmBrain } from '../../../src/agents/player/llm-brain.ts';
import { plainPersona } from '../../../src/agents/player/persona-prompt.ts';
import { llmSummarizer } from '../../../src/agents/player/summarizer.ts';
import { seatThinker } from '../../../src/agents/player/think.ts';
import { HOUSE_PLAYERS } from '../../../src/agents/seats.ts';
import { playGame, type NewTable } from '../../../src/agents/table.ts';
import { startFakeAnthropic } from '../../support/fake-anthropic.ts';
import { reply, type FakeLlmServer } from '../../support/fake-llm-server.ts';
import { startFakeOpenAi } from '../../support/fake-openai.ts';
import { optionsOf, playingModel, seatNameOf, type PlayingModelOptions } from '../../support/playing-model.ts';

let fake: FakeLlmServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

type Wire = 'openai' | 'anthropic';

async function start(wire: Wire, model: PlayingModelOptions = {}): Promise<{ fake: FakeLlmServer; provider: LlmProvider }> {
  fake = await (wire === 'openai' ? startFakeOpenAi : startFakeAnthropic)(playingModel(model));
  const options = { apiKey: 'test-key', baseURL: fake.baseURL, timeoutMs: 400, maxRetries: 2 };
  const provider = wire === 'openai' ? createOpenAiProvider(options) : createAnthropicProvider(options);
  return { fake, provider };
}

function seats(provider: LlmProvider, count: number, extra: { calls?: CallRecord[]; allow?: () => Promise<boolean> } = {}) {
  return HOUSE_PLAYERS.slice(0, count).map((voice, i) => ({
    id: `seat${i + 1}`,
    name: voice.name,
    brain: llmBrain({
      persona: plainPersona(voice),
      model: 'fake-model',
      think: seatThinker({ provider, onCall: (r) => extra.calls?.push(r) }),
      fallback: heuristicBrain(voice),
      ...(extra.allow && { allow: extra.allow }),
    }),
  }));
}

async function play(table: Omit<NewTable, 'gameId' | 'seed'> & { seed?: number }) {
  const result = await playGame({ gameId: 'llm-test', seed: table.seed ?? 3, settings: { rules: { maxQuietCycles: 2 } }, ...table });
  if (!result.ok) throw new Error(result.error);
  return result.state;
}

const reasonings = (state: Awaited<ReturnType<typeof play>>) =>
  state.log.flatMap((e) => (e.type === 'reasoning' ? [e.payload] : []));

for (const wire of ['openai', 'anthropic'] as const) {
  describe(`LLM seats over the ${wire} wire`, () => {
    it('GIVEN seven seats played by the model WHEN a game runs THEN it reaches a winner with every decision from the model, a day summary from the model, and each seat’s system prompt identical across its calls', async () => {
      const { fake, provider } = await start(wire);
      const calls: CallRecord[] = [];
      const state = await play({ seats: seats(provider, 7, { calls }), summarizer: llmSummarizer({ provider, model: 'fake-model' }) });
      expect(state.outcome?.kind).toMatch(/win|draw/);
      expect(reasonings(state).every((r) => !r.decision.includes('fallback'))).toBe(true);
      expect(calls.length).toBe(reasonings(state).length);
      expect(state.log.some((e) => e.type === 'day_summary' && e.payload.text.startsWith('A tense day'))).toBe(true);
      const systemsBySeat = new Map<string, Set<string>>();
      for (const r of fake.requests) {
        if (!r.outputName) continue;
        const set = systemsBySeat.get(seatNameOf(r)) ?? new Set<string>();
        set.add(r.system);
        systemsBySeat.set(seatNameOf(r), set);
      }
      for (const systems of systemsBySeat.values()) expect(systems.size).toBe(1);
    });

    it('GIVEN a model that names an illegal target once WHEN it is re-asked with the error THEN its second, legal answer is used', async () => {
      const { fake, provider } = await start(wire, {
        pick: (options, request) => (request.lastUserText.startsWith('Your answer was not accepted') ? options[0]! : 'Nobody Real'),
      });
      const state = await play({ seats: seats(provider, 5) });
      const reask = fake.requests.find((r) => r.lastUserText.startsWith('Your answer was not accepted'))!;
      expect(reask.lastUserText).toMatch(/Field "decision"|not a legal option/);
      expect(reasonings(state).some((r) => r.decision.includes('fallback'))).toBe(false);
    });

    it('GIVEN a model that keeps contradicting itself WHEN re-asked once THEN the offline brain decides and the decision is marked as a fallback', async () => {
      const { fake, provider } = await start(wire, {
        pick: (options) => options[0]!,
        speech: (decision, request) => {
          const other = optionsOf(request).find((o) => o !== decision && !o.startsWith('('));
          return other ? `I'm voting ${other}.` : 'Fine.';
        },
      });
      const state = await play({ seats: seats(provider, 5) });
      const fallbacks = reasonings(state).filter((r) => r.decision.startsWith('vote') && r.decision.includes('offline fallback: invalid answer twice'));
      expect(fallbacks.length).toBeGreaterThan(0);
      expect(fake.requests.some((r) => /Say what you do and do what you say/.test(r.lastUserText))).toBe(true);
    });

    it('GIVEN the server answers 429, 500, malformed JSON and a hang on some calls WHEN a game runs THEN it never stalls and reaches a winner', async () => {
      const faults = [reply.rateLimited(0), reply.serverError(), reply.malformed(), reply.hang()];
      const { provider } = await start(wire, { override: (r) => (r.index % 9 === 4 ? faults[Math.floor(r.index / 9) % faults.length] : undefined) });
      const state = await play({ seats: seats(provider, 5) });
      expect(state.phase).toBe('ended');
    }, 60_000);

    it('GIVEN a token budget that runs out WHEN seats keep deciding THEN they fall back to the offline brain and the table is told once', async () => {
      const { provider } = await start(wire, { usage: { input: 900, output: 100 } });
      const ledger = memoryLedger();
      const budget = new TokenBudget(ledger, 5_000);
      const calls: CallRecord[] = [];
      const brains = seats(provider, 5, { calls, allow: () => budget.allows('guild') }).map((s) => ({
        ...s,
        brain: async (...args: Parameters<typeof s.brain>) => {
          const before = calls.length;
          const decision = await s.brain(...args);
          for (const c of calls.slice(before)) await budget.record({ guildId: 'guild', inputTokens: c.usage.inputTokens, outputTokens: c.usage.outputTokens });
          return decision;
        },
      }));
      const state = await play({ seats: brains });
      expect(state.log.filter((e) => e.type === 'notice')).toHaveLength(1);
      expect(reasonings(state).some((r) => r.decision.includes('offline fallback: budget'))).toBe(true);
      expect(calls.length).toBeLessThanOrEqual(6);
    });
  });
}
