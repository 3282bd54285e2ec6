import { afterEach, describe, expect, it } from 'vitest';
import { callCost, memoryLedger, TokenBudget } from '../../../src/agents/budget.ts';
import { heuristicBrain } from '../../../src/agents/heuristic/brain.ts';
import { createAnthropicProvider } from '../../../src/llm/anthropic-provider.ts';
import { createOpenAiProvider } from '../../../src/llm/openai-provider.ts';
import { metered, type CallRecord } from '../../../src/llm/metered.ts';
import type { LlmProvider } from '../../../src/llm/types.ts';
import { llmBrain } from '../../../src/agents/player/llm-brain.ts';
import { plainPersona } from '../../../src/agents/player/persona-prompt.ts';
import { llmSummarizer } from '../../../src/agents/player/summarizer.ts';
import { seatThinker } from '../../../src/agents/player/think.ts';
import { HOUSE_PLAYERS } from '../../../src/agents/seats.ts';
import type { AiSeat } from '../../../src/agents/ai-seats.ts';
import { playHeadless, type HeadlessOptions } from '../../../src/session/headless-game.ts';
import { startFakeAnthropic } from '../../../scripts/fakes/llm/fake-anthropic.ts';
import { reply, type FakeLlmServer } from '../../../scripts/fakes/llm/fake-llm-server.ts';
import { startFakeOpenAi } from '../../../scripts/fakes/llm/fake-openai.ts';
import { optionsOf, playingModel, seatNameOf, type PlayingModelOptions } from '../../../scripts/fakes/llm/playing-model.ts';

let fake: FakeLlmServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

type Wire = 'openai' | 'anthropic';

/** `timeoutMs`: per attempt; generous, since a call that times out falls back to the offline brain. */
async function start(
  wire: Wire,
  model: PlayingModelOptions = {},
  timeoutMs = 30_000,
): Promise<{ fake: FakeLlmServer; provider: LlmProvider }> {
  fake = await (wire === 'openai' ? startFakeOpenAi : startFakeAnthropic)(playingModel(model));
  const options = { apiKey: 'test-key', baseURL: fake.baseURL, timeoutMs, maxRetries: 2 };
  const provider = wire === 'openai' ? createOpenAiProvider(options) : createAnthropicProvider(options);
  return { fake, provider };
}

function seats(provider: LlmProvider, count: number, extra: { calls?: CallRecord[]; allow?: () => Promise<boolean> } = {}): AiSeat[] {
  return HOUSE_PLAYERS.slice(0, count).map((voice, i) => ({
    id: `seat${i + 1}`,
    name: voice.name,
    offline: heuristicBrain(voice),
    brain: llmBrain({
      persona: plainPersona(voice),
      model: 'fake-model',
      think: seatThinker({ provider: metered(provider, { record: (r) => void extra.calls?.push(r) }) }),
      fallback: heuristicBrain(voice),
      ...(extra.allow && { allow: extra.allow }),
    }),
  }));
}

async function play(liveGame: Omit<HeadlessOptions, 'gameId' | 'seed'> & { seed?: number }) {
  const result = await playHeadless({
    gameId: 'llm-test',
    seed: liveGame.seed ?? 3,
    settings: { rules: { maxQuietCycles: 2 } },
    ...liveGame,
  });
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

const reasonings = (state: Awaited<ReturnType<typeof play>>) => state.log.flatMap((e) => (e.type === 'reasoning' ? [e.payload] : []));

for (const wire of ['openai', 'anthropic'] as const) {
  describe(`LLM seats over the ${wire} wire`, () => {
    it('GIVEN seven seats played by the model WHEN a game runs THEN it reaches a winner with every decision from the model, a day summary from the model, and each seat’s system prompt identical across its calls', async () => {
      const { fake, provider } = await start(wire);
      const calls: CallRecord[] = [];
      const state = await play({ seats: seats(provider, 7, { calls }), summarizer: llmSummarizer({ provider, model: 'fake-model' }) });
      expect(state.outcome?.kind).toMatch(/win|draw/);
      expect(reasonings(state).every((r) => r.fallback === undefined && r.outcome === 'counted')).toBe(true);
      // Mafia teammates back the proposer's target without a call of their own.
      expect(calls.length).toBe(reasonings(state).filter((r) => !r.text.startsWith('Backs ')).length);
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
      expect(reask.lastUserText).toMatch(/Field "decision"|not one of your options/);
      // The re-ask carries the whole turn: the original context, the rejected answer as it came, then the complaint.
      expect(reask.transcript[0]!.text).toContain('# Your task');
      const rejected = reask.transcript[1]!;
      expect(rejected.role).toBe('assistant');
      expect(JSON.stringify(rejected.toolCalls ?? []) + rejected.text).toContain('Nobody Real');
      // Anthropic: the rejected answer was a call of the output tool, so its result opens the next turn.
      expect(reask.transcript.slice(2).map((t) => t.role)).toEqual(wire === 'anthropic' ? ['tool', 'user'] : ['user']);
      expect(reasonings(state).some((r) => r.fallback !== undefined)).toBe(false);
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
      const fallbacks = reasonings(state).filter((r) => r.decision.startsWith('vote') && r.fallback === 'invalid_answer');
      expect(fallbacks.length).toBeGreaterThan(0);
      expect(fake.requests.some((r) => /Say what you do and do what you say/.test(r.lastUserText))).toBe(true);
    });

    it('GIVEN the server answers 429, 500, malformed JSON and a hang on some calls WHEN a game runs THEN it never stalls and reaches a winner', async () => {
      const faults = [reply.rateLimited(0), reply.serverError(), reply.malformed(), reply.hang()];
      // A short timeout: the hung calls must end quickly (any call may fall back here).
      const { provider } = await start(
        wire,
        { override: (r) => (r.index % 9 === 4 ? faults[Math.floor(r.index / 9) % faults.length] : undefined) },
        400,
      );
      const state = await play({ seats: seats(provider, 5) });
      expect(state.phase).toBe('ended');
    });

    it('GIVEN a token budget that runs out WHEN seats keep deciding THEN they fall back to the offline brain and the table is told once', async () => {
      const { provider } = await start(wire, { usage: { input: 900, output: 100 } });
      const ledger = memoryLedger();
      const budget = new TokenBudget(ledger, { server: { tokens: 5_000 } });
      const calls: CallRecord[] = [];
      const brains = seats(provider, 5, { calls, allow: () => budget.allows('guild') }).map((s) => ({
        ...s,
        brain: async (...args: Parameters<typeof s.brain>) => {
          const before = calls.length;
          const decision = await s.brain(...args);
          for (const c of calls.slice(before)) {
            await budget.record(callCost({ guildId: 'guild', gameId: 'g', purpose: 'decision' }, c));
          }
          return decision;
        },
      }));
      const state = await play({ seats: brains });
      expect(state.log.filter((e) => e.type === 'notice')).toHaveLength(1);
      expect(reasonings(state).some((r) => r.fallback === 'budget_spent')).toBe(true);
      expect(calls.length).toBeLessThanOrEqual(6);
    });
  });
}

describe('seat tools and concurrency', () => {
  it('GIVEN a model that checks a dead player’s will and someone’s votes before voting WHEN it runs THEN the tool results come from its own view, the vote still lands and the director’s record keeps the calls and the reads', async () => {
    let toolTurns = 0;
    fake = await startFakeOpenAi((request) => {
      const inVote = request.lastUserText.includes('# Your task: Vote');
      if (inVote && request.toolResults.length === 0 && toolTurns < 3) {
        toolTurns++;
        return reply.tools([
          { name: 'vote_history', input: { player: 'Ada' } },
          { name: 'check_will', input: { player: 'Nobody' } },
          { name: 'read_transcript', input: { day: 1 } },
        ]);
      }
      return playingModel()(request);
    });
    const provider = createOpenAiProvider({ apiKey: 'k', baseURL: fake.baseURL, timeoutMs: 2000 });
    const state = await play({ seats: seats(provider, 5) });
    expect(state.phase).toBe('ended');
    const afterTools = fake.requests.filter((r) => r.toolResults.length === 3);
    expect(afterTools.length).toBeGreaterThan(0);
    const [history, will, transcript] = afterTools[0]!.toolResults;
    expect(history!.text).toMatch(/^(Day 1: |No vote has finished yet\.)/);
    expect(will!.text).toMatch(/No player called Nobody/);
    expect(transcript!.text).toMatch(/<speech player=|Nothing was said/);
    for (const r of afterTools) for (const t of r.toolResults) expect(t.text).not.toMatch(/role_assigned|investigation_result|⟦/);
    const withTools = reasonings(state).filter((r) => r.tools !== undefined);
    expect(withTools.length).toBeGreaterThan(0);
    expect(withTools[0]!.tools!.map((t) => t.name)).toEqual(['vote_history', 'check_will', 'read_transcript']);
    expect(withTools[0]!.tools![1]!.output).toMatch(/No player called Nobody/);
    const seated = new Set(state.players.map((p) => p.id));
    for (const r of reasonings(state))
      for (const [id, s] of Object.entries(r.suspicion ?? {})) {
        expect(seated.has(id)).toBe(true);
        expect(s).toBeGreaterThanOrEqual(0);
        expect(s).toBeLessThanOrEqual(1);
      }
    expect(reasonings(state).filter((r) => r.suspicion && Object.keys(r.suspicion).length > 0).length).toBeGreaterThan(0);
  });

  it('GIVEN seven seats voting WHEN the vote is asked THEN all their model calls are in flight at once', async () => {
    const { provider } = await start('openai', { delayMs: 30 });
    let inFlight = 0;
    let peak = 0;
    const counting: LlmProvider = {
      name: provider.name,
      stream: (r) => provider.stream(r),
      async complete(request) {
        inFlight++;
        peak = Math.max(peak, inFlight);
        try {
          return await provider.complete(request);
        } finally {
          inFlight--;
        }
      },
    };
    await play({ seats: seats(counting, 7) });
    expect(peak).toBeGreaterThanOrEqual(5);
  });
});
