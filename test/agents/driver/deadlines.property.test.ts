import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { movesReport } from '../../../scripts/lib/moves-report.ts';
import { playRealtime } from '../../../scripts/lib/realtime-game.ts';
import { seededRandom, type CallOutcome } from '../../../scripts/lib/simulated-model.ts';

/** The phase a seat's call is for, read from its turn ("# Now: vote, day 2"). */
function phaseOf(text: string): string {
  return /# Now: (night|dawn|day|vote|last words)/.exec(text)?.[1] ?? 'day';
}

describe('property: AI moves are always in before their phase resolves', () => {
  it('GIVEN random games with model latencies up to twice the phase, hangs that never answer, 429s and 5xx WHEN played in real time THEN every living AI seat’s vote, night action and (in a trial day) defense is in the log before its phase resolves, and no phase ends past its deadline', async () => {
    let defensesDue = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
          aiSeats: fc.integer({ min: 3, max: 7 }),
          people: fc.integer({ min: 0, max: 4 }),
          nightSeconds: fc.integer({ min: 10, max: 90 }),
          daySeconds: fc.integer({ min: 20, max: 120 }),
          voteSeconds: fc.integer({ min: 10, max: 90 }),
          dayStyle: fc.constantFrom('open' as const, 'trial' as const),
          defenseSeconds: fc.integer({ min: 10, max: 60 }),
          hang: fc.double({ min: 0, max: 0.3, noNaN: true }),
          rateLimited: fc.double({ min: 0, max: 0.2, noNaN: true }),
          serverError: fc.double({ min: 0, max: 0.2, noNaN: true }),
        }),
        async (c) => {
          if (c.aiSeats + c.people < 5) return;
          const random = seededRandom(c.seed);
          const seconds: Record<string, number> = {
            night: c.nightSeconds,
            day: c.daySeconds,
            vote: c.voteSeconds,
            defense: c.defenseSeconds,
            'last words': 30,
            dawn: 10,
          };
          const behaviour = ({ request }: { request: { messages: readonly { content: string }[] } }): CallOutcome => {
            const roll = random();
            const phaseMs = (seconds[phaseOf(request.messages.map((m) => m.content).join('\n'))] ?? 60) * 1000;
            const afterMs = Math.round(random() * 2 * phaseMs);
            if (roll < c.hang) return { kind: 'hang' };
            if (roll < c.hang + c.rateLimited)
              return { kind: 'rate_limited', afterMs: Math.round(afterMs / 10), retryAfterMs: Math.round(random() * 10_000) };
            if (roll < c.hang + c.rateLimited + c.serverError) return { kind: 'server_error', afterMs: Math.round(afterMs / 10) };
            return { kind: 'answer', afterMs };
          };
          const state = await playRealtime({
            seed: c.seed,
            aiSeats: c.aiSeats,
            people: c.people,
            random,
            behaviour,
            settings: {
              rules: {
                nightSeconds: c.nightSeconds,
                daySeconds: c.daySeconds,
                voteSeconds: c.voteSeconds,
                dayStyle: c.dayStyle,
                defenseSeconds: c.defenseSeconds,
                maxQuietCycles: 2,
              },
            },
          });
          expect(state.phase).toBe('ended');
          const report = movesReport(state);
          defensesDue += state.log.filter((e) => e.type === 'phase_started' && e.payload.defendantId !== undefined).length;
          expect(report.missed).toEqual([]);
          // On the manual clock a phase resolves exactly at its deadline; in a bot, store latency adds to it.
          expect(report.overrunMsMax).toBe(0);
          // Nothing was recorded as counting for a phase it arrived after.
          for (const e of state.log) if (e.type === 'reasoning') expect(e.payload.outcome).not.toBe('late');
        },
      ),
      { numRuns: 150 },
    );
    // The trial days did put seats on trial: the defense phase was exercised.
    expect(defensesDue).toBeGreaterThan(0);
  }, 300_000);
});
