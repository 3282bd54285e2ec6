/**
 * The LLM seats measured as they play: all-AI games of the seven starter personas (the bench
 * plays hundreds per provider, one seed each), through the real SDKs against the wire fakes
 * (which report prompt caching as the providers document it), with the bot's own AI driver.
 * Calls, tokens, the cache-read share and dollars.
 */
import { Worker } from 'node:worker_threads';
import { memoryLedger, TokenBudget } from '../src/agents/budget.ts';
import { createAnthropicProvider } from '../src/llm/anthropic-provider.ts';
import { createOpenAiProvider } from '../src/llm/openai-provider.ts';
import { withRetries } from '../src/llm/retrying-provider.ts';
import type { CallRecord } from '../src/llm/tool-loop.ts';
import type { LlmProvider, ProviderName } from '../src/llm/types.ts';
import { Seating } from '../src/agents/seating.ts';
import { realTimers } from '../src/clock.ts';
import type { LlmConfig } from '../src/config.ts';
import type { GameState } from '../src/game/index.ts';
import { playHeadless } from '../src/session/headless-game.ts';
import { startFakeAnthropic } from './fakes/llm/fake-anthropic.ts';
import { startFakeOpenAi } from './fakes/llm/fake-openai.ts';
import { playingModel } from './fakes/llm/playing-model.ts';
import { demoPersonas } from './lib/demo-personas.ts';
import { dollarsOf, priceOf, type Price } from './lib/prices.ts';

/** The list price the bench names (USD per million tokens): a Sonnet-class model's, from the model table. */
export const PRICE: Price = benchPrice();

function benchPrice(): Price {
  // Sonnet 4.5's row, the price the README's figures were measured at.
  const price = priceOf('anthropic', 'claude-sonnet-4-5');
  if (!price) throw new Error('the model table has no price for claude-sonnet-4-5');
  return price;
}

export interface ProviderGameFigures {
  readonly provider: ProviderName;
  readonly calls: number;
  readonly inputTokens: number;
  readonly cachedInputTokens: number;
  readonly cacheWriteInputTokens: number;
  readonly outputTokens: number;
  readonly dollars: number;
  readonly callsByPurpose: Record<string, number>;
  /** The day the game ended on. */
  readonly days: number;
}

function envFor(provider: ProviderName): LlmConfig {
  return {
    provider,
    openai: { apiKey: 'bench', baseURL: undefined, model: 'bench-openai' },
    anthropic: { apiKey: 'bench', baseURL: undefined, model: 'bench-claude' },
    timeoutMs: 30_000,
    maxToolRounds: 4,
    dailyTokenBudget: 0,
  };
}

/** One all-AI game of the starter personas on one provider's wire fake. */
export async function benchProviderGame(provider: ProviderName, seed = 42, players = 7): Promise<ProviderGameFigures> {
  const fake = await (provider === 'openai' ? startFakeOpenAi : startFakeAnthropic)(playingModel());
  try {
    const client =
      provider === 'openai'
        ? createOpenAiProvider({ apiKey: 'bench', baseURL: fake.baseURL, timeoutMs: 30_000, maxRetries: 0, promptCacheKey: true })
        : createAnthropicProvider({ apiKey: 'bench', baseURL: fake.baseURL, timeoutMs: 30_000, maxRetries: 0 });
    const retried: LlmProvider = withRetries(client, { clock: realTimers, attemptTimeoutMs: 30_000 });
    const calls: { purpose: string; record: CallRecord }[] = [];
    const budget = new TokenBudget(memoryLedger(), 0);
    const gameId = `bench-llm-${provider}-${seed}`;
    const seating = new Seating(
      envFor(provider),
      { guildId: 'bench', gameId },
      {
        budget,
        cost: (site, record) => calls.push({ purpose: site.purpose, record }),
        providers: (name) => (name === provider ? retried : null),
      },
    );
    const personas = await demoPersonas(players);
    const seats = personas.map((p, i) => seating.seat({ id: `seat${i + 1}`, name: p.name }, p.prompt));
    const summarizer = seating.summarizer();
    const result = await playHeadless({ gameId, seed, seats, startAt: Date.UTC(2026, 0, 1), ...(summarizer && { summarizer }) });
    if (!result.ok) throw new Error(result.error);
    const state: GameState = result.value;
    const records = calls.map((c) => c.record);
    const sum = (f: (r: CallRecord) => number) => records.reduce((n, r) => n + f(r), 0);
    const callsByPurpose: Record<string, number> = {};
    for (const c of calls) callsByPurpose[c.purpose] = (callsByPurpose[c.purpose] ?? 0) + 1;
    return {
      provider,
      calls: records.length,
      inputTokens: sum((r) => r.usage.inputTokens),
      cachedInputTokens: sum((r) => r.usage.cachedInputTokens),
      cacheWriteInputTokens: sum((r) => r.usage.cacheWriteInputTokens ?? 0),
      outputTokens: sum((r) => r.usage.outputTokens),
      dollars: dollarsOf(records, PRICE),
      callsByPurpose,
      days: state.day,
    };
  } finally {
    await fake.close();
  }
}

export interface LatencyFigures {
  readonly latencyMs: number;
  /** Per phase type: wall time / (sequential model depth × L): how much the driver adds to the model's own time. */
  readonly phaseRatios: Map<string, number>;
}

/**
 * Wall time against a fake with a fixed latency L, in its own thread so its work does not slow the
 * driver being timed: a phase should take about its sequential model depth × L and no more.
 */
export async function benchLatency(latencyMs = 500, seed = 5, players = 8): Promise<LatencyFigures> {
  // A worker does not inherit tsx's loader: register it, then load the TypeScript entry.
  const entry = new URL('./fake-model-worker.ts', import.meta.url).href;
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`;
  const worker = new Worker(boot, { eval: true, workerData: { latencyMs } });
  const ask = <T>(message?: string) =>
    new Promise<T>((resolve) => {
      worker.once('message', resolve);
      if (message) worker.postMessage(message);
    });
  const { baseURL } = await ask<{ baseURL: string }>();
  try {
    const client = createOpenAiProvider({ apiKey: 'bench', baseURL, timeoutMs: 10_000, maxRetries: 0 });
    const spans: { start: number; end: number; phase: string }[] = [];
    let phase = 'lobby';
    const timed: LlmProvider = {
      name: client.name,
      stream: (r) => client.stream(r),
      async complete(request) {
        const start = performance.now();
        const at = phase;
        const result = await client.complete(request);
        spans.push({ start, end: performance.now(), phase: at });
        return result;
      },
    };
    const seating = new Seating(envFor('openai'), { guildId: 'bench', gameId: 'bench-latency' }, { providers: () => timed });
    const personas = await demoPersonas(players);
    const seats = personas.map((p, i) => seating.seat({ id: `seat${i + 1}`, name: p.name }, p.prompt));
    const summarizer = seating.summarizer();
    const wall = new Map<string, number>();
    let since = performance.now();
    const result = await playHeadless({
      gameId: 'bench-latency',
      seed,
      seats,
      ...(summarizer && { summarizer }),
      onEvents: (_events, after) => {
        if (after.phase === phase) return;
        const now = performance.now();
        wall.set(phase, (wall.get(phase) ?? 0) + now - since);
        phase = after.phase;
        since = now;
      },
    });
    if (!result.ok) throw new Error(result.error);
    // Sequential depth: busy periods (some call in flight), each worth round(length / L) calls.
    const depth = new Map<string, number>();
    type Span = (typeof spans)[number];
    const count = (period: Span) =>
      depth.set(period.phase, (depth.get(period.phase) ?? 0) + Math.max(1, Math.round((period.end - period.start) / latencyMs)));
    let busy: Span | undefined;
    for (const span of [...spans].sort((a, b) => a.start - b.start)) {
      // A call that starts inside the busy period extends it; the period counts in its first call's phase.
      if (busy !== undefined && span.start < busy.end) {
        busy.end = Math.max(busy.end, span.end);
        continue;
      }
      if (busy !== undefined) count(busy);
      busy = { ...span };
    }
    if (busy !== undefined) count(busy);
    const phaseRatios = new Map<string, number>();
    for (const [p, d] of depth) {
      const w = wall.get(p);
      if (w) phaseRatios.set(p, w / (d * latencyMs));
    }
    return { latencyMs, phaseRatios };
  } finally {
    worker.postMessage('close');
    await new Promise((resolve) => worker.once('exit', resolve));
  }
}
