/**
 * The LLM seats measured as they play: all-AI games of the seven starter personas (the bench
 * plays hundreds per model and output level, one seed each), through the real SDKs against the
 * wire fakes (which report prompt caching as the providers document it), with the bot's own AI
 * driver, on the game's clock: the fake model takes its time on it, so deadlines and cache TTLs
 * meet the model as in a real game. Calls, tokens, the cache-read share and what the fake billed.
 */
import { memoryLedger, TokenBudget } from '../src/agents/budget.ts';
import { createAnthropicProvider } from '../src/llm/anthropic-provider.ts';
import { createOpenAiProvider } from '../src/llm/openai-provider.ts';
import { withRetries } from '../src/llm/retrying-provider.ts';
import type { CallRecord } from '../src/llm/metered.ts';
import type { LlmProvider, ProviderName } from '../src/llm/types.ts';
import { Seating } from '../src/agents/seating.ts';
import { DEFAULT_MODELS } from '../src/models.ts';
import { ManualTimers } from '../src/clock.ts';
import type { LlmConfig } from '../src/config.ts';
import type { GameState, SettingsInput } from '../src/game/index.ts';
import { playHeadless } from '../src/session/headless-game.ts';
import { startFakeAnthropic } from './fakes/llm/fake-anthropic.ts';
import type { FakeRequest } from './fakes/llm/fake-llm-server.ts';
import { startFakeOpenAi } from './fakes/llm/fake-openai.ts';
import type { OutputLevel } from './fakes/llm/playing-answer.ts';
import { ILLEGAL_ANSWER_RATE, playingModel, seatNameOf } from './fakes/llm/playing-model.ts';
import { clockGate } from './lib/clock-gate.ts';
import { demoPersonas } from './lib/demo-personas.ts';
import { missingFacts, promptText } from './lib/entitled-facts.ts';
import { movesReport } from './lib/moves-report.ts';
import { seededRandom } from './lib/simulated-model.ts';
import { tsWorker } from './lib/ts-worker.ts';
import { billedTokens, type BilledTokens } from './lib/wire-bill.ts';

export interface ProviderGameFigures {
  readonly provider: ProviderName;
  readonly calls: number;
  readonly inputTokens: number;
  readonly cachedInputTokens: number;
  readonly cacheWriteInputTokens: number;
  readonly outputTokens: number;
  /** What the fake billed, by rate: price it at any model's list price (`dollarsAt`). */
  readonly billed: BilledTokens;
  readonly callsByPurpose: Record<string, number>;
  /** Decisions asked again after an answer the rules refused. */
  readonly reasks: number;
  /** Decisions asked of a seat, and those its offline brain made instead (a deadline passed, a second illegal answer). */
  readonly decisions: number;
  readonly fallbacks: number;
  /** Calls that answered a tool round (a tool's result at the end of the request). */
  readonly toolRounds: number;
  /** Game time between one seat's consecutive calls, ms. */
  readonly seatGapsMs: readonly number[];
  /** The day the game ended on. */
  readonly days: number;
  /** Facts a seat was entitled to that its prompt did not tell, over every call (`entitled-facts.ts`); target 0. */
  readonly entitledFactsMissing: number;
  /** Decision prompts audited for them. */
  readonly promptsAudited: number;
}

function envFor(provider: ProviderName, model: string): LlmConfig {
  return {
    provider,
    openai: { apiKey: 'bench', baseURL: undefined, model: provider === 'openai' ? model : 'unused' },
    anthropic: { apiKey: 'bench', baseURL: undefined, model: provider === 'anthropic' ? model : 'unused' },
    timeoutMs: 30_000,
    maxToolRounds: 4,
    dailyTokenBudget: 0,
  };
}

const T0 = Date.UTC(2026, 0, 1);
const REASK = 'Your answer was not accepted';

/** Game time between each seat's consecutive calls (decisions only: the recap has no seat). */
function seatGaps(requests: readonly FakeRequest[]): number[] {
  const last = new Map<string, number>();
  const gaps: number[] = [];
  for (const request of [...requests].sort((a, b) => a.arrivedAt - b.arrivedAt)) {
    if (!request.outputSchema) continue;
    const seat = seatNameOf(request);
    const before = last.get(seat);
    if (before !== undefined) gaps.push(request.arrivedAt - before);
    last.set(seat, request.arrivedAt);
  }
  return gaps;
}

/** One game of the bench: a model (its id sets the fake's cache minimum), how much the fake writes, and the seed. */
export interface GameJob {
  readonly provider: ProviderName;
  readonly model: string;
  readonly level: OutputLevel;
  readonly seed: number;
  readonly players?: number;
  readonly settings?: SettingsInput;
}

/** One all-AI game of the starter personas on one provider's wire fake. */
export async function benchProviderGame(job: GameJob): Promise<ProviderGameFigures> {
  const { provider, model, level, seed, players = 7 } = job;
  const clock = new ManualTimers(T0);
  const answers = playingModel({ level, illegalRate: ILLEGAL_ANSWER_RATE });
  const fake = await (provider === 'openai' ? startFakeOpenAi : startFakeAnthropic)(answers, { clock });
  try {
    const client =
      provider === 'openai'
        ? createOpenAiProvider({ apiKey: 'bench', baseURL: fake.baseURL, timeoutMs: 30_000, maxRetries: 0, promptCacheKey: true })
        : createAnthropicProvider({ apiKey: 'bench', baseURL: fake.baseURL, timeoutMs: 30_000, maxRetries: 0 });
    const gate = clockGate(client, fake);
    const retried: LlmProvider = withRetries(gate.provider, { clock, attemptTimeoutMs: 30_000, random: seededRandom(seed) });
    const calls: { purpose: string; record: CallRecord }[] = [];
    const audit = { missing: 0, prompts: 0 };
    const budget = new TokenBudget(memoryLedger(), {});
    const gameId = `bench-llm-${provider}-${seed}`;
    const seating = new Seating(
      envFor(provider, model),
      { guildId: 'bench', gameId },
      {
        budget,
        clock,
        cost: (site, record) => calls.push({ purpose: site.purpose, record }),
        providers: (name) => (name === provider ? retried : null),
        onPrompt: (_seat, request, view) => {
          audit.prompts++;
          audit.missing += missingFacts(view, promptText(request)).length;
        },
      },
    );
    const personas = await demoPersonas(players);
    const seats = personas.map((p, i) => seating.seat({ id: `seat${i + 1}`, name: p.name }, p.prompt));
    const summarizer = seating.summarizer();
    const result = await playHeadless({
      gameId,
      seed,
      seats,
      clock,
      time: 'virtual',
      outsideWork: gate.outsideWork,
      ...(job.settings && { settings: job.settings }),
      ...(summarizer && { summarizer }),
    });
    if (!result.ok) throw new Error(result.error);
    const state: GameState = result.value;
    const moves = movesReport(state);
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
      billed: billedTokens(fake.usages),
      callsByPurpose,
      reasks: fake.requests.filter((r) => r.lastUserText.startsWith(REASK)).length,
      decisions: moves.decisions,
      fallbacks: moves.fallbacks,
      toolRounds: fake.requests.filter((r) => r.toolResults.length > 0).length,
      seatGapsMs: seatGaps(fake.requests),
      days: state.day,
      entitledFactsMissing: audit.missing,
      promptsAudited: audit.prompts,
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
  const worker = tsWorker(new URL('./fake-model-worker.ts', import.meta.url), { latencyMs });
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
    const seating = new Seating(
      envFor('openai', DEFAULT_MODELS.openai),
      { guildId: 'bench', gameId: 'bench-latency' },
      { providers: () => timed },
    );
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
