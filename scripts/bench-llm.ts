/**
 * The LLM table measured against the wire-protocol fake at a fixed latency: calls per decision,
 * prompt size by day, the share of each prompt that is the cacheable prefix, and how close each
 * phase's wall time comes to its sequential model latency.
 */
import { heuristicBrain } from '../src/agents/heuristic/brain.ts';
import { createOpenAiProvider } from '../src/agents/llm/openai-provider.ts';
import type { LlmProvider, LlmRequest } from '../src/agents/llm/types.ts';
import { llmBrain } from '../src/agents/player/llm-brain.ts';
import { plainPersona } from '../src/agents/player/persona-prompt.ts';
import { llmSummarizer } from '../src/agents/player/summarizer.ts';
import { seatThinker } from '../src/agents/player/think.ts';
import { HOUSE_PLAYERS } from '../src/agents/seats.ts';
import { playGame } from '../src/agents/table.ts';
import type { GameState } from '../src/game/index.ts';
import { Worker } from 'node:worker_threads';

export interface LlmBenchFigures {
  latencyMs: number;
  calls: number;
  decisions: number;
  summaries: number;
  inputTokensByDay: Map<number, { mean: number; max: number }>;
  stableShare: number;
  phaseRatios: Map<string, number>;
  /** Wall time beyond the model's latency, per phase type, in ms over the whole game. */
  phaseOverheadMs: Map<string, number>;
}

interface Span {
  start: number;
  end: number;
  phase: string;
  day: number;
  chars: number;
  stableChars: number;
}

const CHARS_PER_TOKEN = 4;

export async function benchLlmTable(latencyMs = 500, seats = 8, seed = 5): Promise<LlmBenchFigures> {
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
    const real = createOpenAiProvider({ apiKey: 'bench', baseURL, timeoutMs: 10_000 });
    const spans: Span[] = [];
    let state: GameState | null = null;
    const timed: LlmProvider = {
      name: real.name,
      stream: (r) => real.stream(r),
      async complete(request: LlmRequest) {
        const stable = request.system.stable.length + JSON.stringify(request.tools ?? []).length;
        const total = stable + (request.system.dynamic?.length ?? 0) + request.messages.reduce((n, m) => n + m.content.length, 0) + JSON.stringify(request.output?.schema ?? '').length;
        const start = performance.now();
        const result = await real.complete(request);
        spans.push({ start, end: performance.now(), phase: state?.phase ?? 'lobby', day: state?.day ?? 0, chars: total, stableChars: stable });
        return result;
      },
    };
    const phaseWall = new Map<string, number>();
    let phaseKey = '';
    let phaseStart = performance.now();
    const result = await playGame({
      gameId: 'bench-llm',
      seed,
      seats: HOUSE_PLAYERS.slice(0, seats).map((voice, i) => ({
        id: `seat${i + 1}`,
        name: voice.name,
        brain: llmBrain({ persona: plainPersona(voice), model: 'fake', think: seatThinker({ provider: timed }), fallback: heuristicBrain(voice) }),
      })),
      summarizer: llmSummarizer({ provider: timed, model: 'fake' }),
      recordReasoning: true,
      onEvents: (_events, after) => {
        state = after;
        const key = `${after.phase}`;
        if (key !== phaseKey) {
          const now = performance.now();
          if (phaseKey) phaseWall.set(phaseKey, (phaseWall.get(phaseKey) ?? 0) + now - phaseStart);
          phaseKey = key;
          phaseStart = now;
        }
      },
    });
    if (!result.ok) throw new Error(result.error);
    const final = result.state;

    // Sequential depth: busy periods (some call in flight), each worth round(length / L) calls.
    const depthByPhase = new Map<string, number>();
    const sorted = [...spans].sort((a, b) => a.start - b.start);
    let i = 0;
    while (i < sorted.length) {
      let end = sorted[i]!.end;
      const phase = sorted[i]!.phase;
      let j = i + 1;
      while (j < sorted.length && sorted[j]!.start < end) end = Math.max(end, sorted[j++]!.end);
      depthByPhase.set(phase, (depthByPhase.get(phase) ?? 0) + Math.max(1, Math.round((end - sorted[i]!.start) / latencyMs)));
      i = j;
    }
    const phaseRatios = new Map<string, number>();
    const phaseOverheadMs = new Map<string, number>();
    for (const [phase, depth] of depthByPhase) {
      const wall = phaseWall.get(phase);
      if (!wall) continue;
      phaseRatios.set(phase, wall / (depth * latencyMs));
      phaseOverheadMs.set(phase, wall - depth * latencyMs);
    }
    const inputTokensByDay = new Map<number, { mean: number; max: number }>();
    for (const day of [1, 2, 3]) {
      const tokens = spans.filter((s) => s.day === day).map((s) => s.chars / CHARS_PER_TOKEN);
      if (tokens.length) inputTokensByDay.set(day, { mean: tokens.reduce((a, b) => a + b, 0) / tokens.length, max: Math.max(...tokens) });
    }
    return {
      latencyMs,
      calls: (await ask<{ requests: number }>('count')).requests,
      decisions: final.log.filter((e) => e.type === 'reasoning').length,
      summaries: final.log.filter((e) => e.type === 'day_summary').length,
      inputTokensByDay,
      stableShare: spans.reduce((n, s) => n + s.stableChars / s.chars, 0) / spans.length,
      phaseRatios,
      phaseOverheadMs,
    };
  } finally {
    worker.postMessage('close');
    await new Promise((resolve) => worker.once('exit', resolve));
  }
}
