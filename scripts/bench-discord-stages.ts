/**
 * Where each acknowledgement's time went. The simulator knows when it created an interaction, when
 * its gateway sent it to the bot and when the bot's acknowledgement reached it; the bot, with
 * INTERACTION_TRACE on, says when the interaction reached its router (`src/discord/interaction-trace.ts`).
 * All four are epoch ms on one machine's clock, each taken before the step that follows it, so a
 * busy simulator and a slow bot show in different stages.
 */
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { readInteractionTrace } from '../src/discord/interaction-trace.ts';
import type { InteractionHandle } from './fakes/discord/index.ts';
import { kindOf, percentile, type StageFigure, type StageFigures, type StageKey } from './bench-discord-world.ts';

export const STAGES: readonly { key: StageKey; label: string }[] = [
  { key: 'dispatch', label: 'simulator: created → sent on the gateway' },
  { key: 'gateway', label: "gateway → the bot's router" },
  { key: 'handler', label: "router → the bot's acknowledgement received by the simulator" },
];

/** When each interaction first reached a bot's router (a relayed DM reaches two), read from the bot processes' output. */
export class TracedArrivals {
  private readonly at = new Map<string, number>();

  /** Reads every line of a bot process's output; the lines that are not the trace's go on to `other`. */
  follow(output: Readable, other: (line: string) => void = () => undefined): void {
    createInterface({ input: output, crlfDelay: Infinity }).on('line', (line) => {
      if (!this.record(line)) other(line);
    });
  }

  /** A log line, kept when it is the trace's (then true). */
  record(line: string): boolean {
    const arrival = readInteractionTrace(line);
    if (!arrival) return false;
    const earlier = this.at.get(arrival.id);
    if (earlier === undefined || arrival.at < earlier) this.at.set(arrival.id, arrival.at);
    return true;
  }

  of(interactionId: string): number | undefined {
    return this.at.get(interactionId);
  }
}

type Durations = Record<StageKey, number>;

function durationsOf(h: InteractionHandle, arrivals: TracedArrivals): Durations | null {
  const { createdAt, dispatchedAt } = h.interaction;
  const received = arrivals.of(h.id);
  const acknowledged = h.interaction.callbacks[0]?.at;
  if (dispatchedAt === null || received === undefined || acknowledged === undefined) return null;
  return { dispatch: dispatchedAt - createdAt, gateway: received - dispatchedAt, handler: acknowledged - received };
}

function summary(durations: readonly Durations[]): Record<StageKey, StageFigure> {
  const of = (key: StageKey): StageFigure => {
    const sorted = durations.map((d) => d[key]).sort((a, b) => a - b);
    return {
      minMs: sorted[0] ?? Number.NaN,
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      maxMs: sorted.at(-1) ?? Number.NaN,
    };
  };
  return { dispatch: of('dispatch'), gateway: of('gateway'), handler: of('handler') };
}

export function stageFigures(handles: readonly InteractionHandle[], arrivals: TracedArrivals): StageFigures {
  const traced = handles.flatMap((h) => {
    const durations = durationsOf(h, arrivals);
    return durations ? [{ kind: kindOf(h), durations }] : [];
  });
  const kinds = [...new Set(traced.map((t) => t.kind))];
  return {
    traced: traced.length,
    all: summary(traced.map((t) => t.durations)),
    byKind: kinds.map((kind) => {
      const of = traced.filter((t) => t.kind === kind).map((t) => t.durations);
      return { kind, count: of.length, stages: summary(of) };
    }),
  };
}

/** The stages as the bench prints them: over all traced interactions, then each stage's p50/p99 by kind. */
export function describeStages(s: StageFigures, acknowledged: number): string[] {
  if (s.traced === 0) return ['  stages: no interaction traced (the bot runs without INTERACTION_TRACE)'];
  const lines = [`  stages of the acknowledgement (${s.traced} of ${acknowledged} acknowledged interactions traced):`];
  for (const { key, label } of STAGES) {
    const f = s.all[key];
    lines.push(`    ${label}: p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms, max ${f.maxMs} ms`);
  }
  lines.push(
    `    by kind (p50 / p99 ms, ${STAGES.map((st) => st.key).join(' · ')}): ${s.byKind
      .map((k) => `${k.kind} ×${k.count} ${STAGES.map((st) => `${k.stages[st.key].p50Ms}/${k.stages[st.key].p99Ms}`).join(' · ')}`)
      .join('; ')}`,
  );
  return lines;
}
