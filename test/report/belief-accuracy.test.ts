import { describe, expect, it } from 'vitest';
import * as engine from '../../src/game/index.ts';
import type { Phase, PlayerState } from '../../src/game/index.ts';
import { beliefAccuracy, bySide, meanOverDays } from '../../src/report/belief-accuracy.ts';
import { directorsCutFile } from '../../src/report/markdown.ts';
import { TestGame } from '../support/test-game.ts';

/**
 * Five players (Mafia M, Townspeople T1–T3, Doctor D). Night 1 nobody dies; day 1 the town lynches
 * T2 (Town, revealed); night 2 the Mafia kill T3; day 2 the town lynches M: the Town win. The seats'
 * suspicions are written as the AI driver records them, with the phase and day they were for.
 */
function playedGame() {
  const g = TestGame.started(['mafia', 'townsperson', 'townsperson', 'townsperson', 'doctor']);
  const M = g.by('mafia');
  const [T1, T2, T3] = [0, 1, 2].map((n) => g.by('townsperson', n)) as [PlayerState, PlayerState, PlayerState];
  const D = g.by('doctor');
  const think = (seat: PlayerState, phase: Phase, day: number, suspicion: Record<string, number>) =>
    g.must(engine.recordReasoning(g.state, { playerId: seat.id, decision: 'd', text: 't', at: g.at, phase, day, suspicion }));

  // Night 1: a read T1 revises later the same day, so it does not count.
  think(T1, 'night', 1, { [M.id]: 0.1, [T2.id]: 0.9, [T3.id]: 0.5, [D.id]: 0.5 });
  g.must(g.act(M, null));
  g.must(g.act(D, null));
  g.advanceTo('vote');
  // End of day 1 for T1: M 0.8, T2 0.4, T3 0.2, D 0.1.
  think(T1, 'vote', 1, { [M.id]: 0.8, [T2.id]: 0.4, [T3.id]: 0.2, [D.id]: 0.1 });
  // T3 suspects M and T1 alike: no single top suspect.
  think(T3, 'vote', 1, { [M.id]: 0.6, [T1.id]: 0.6, [T2.id]: 0.1, [D.id]: 0.1 });
  // The Mafia seat's read of the town.
  think(M, 'vote', 1, { [T1.id]: 0.3, [T2.id]: 0.6, [T3.id]: 0.5, [D.id]: 0.2 });
  for (const voter of [M, T1, T3, D]) g.must(g.vote(voter, T2));
  g.must(g.vote(T2, T1));
  expect(g.state.phase).toBe('last_words');
  g.advanceTo('night');
  // End of day 2 for T1 (T2's role is public now; it says nothing of D, who counts at the uniform prior).
  think(T1, 'night', 2, { [M.id]: 0.4, [T2.id]: 0, [T3.id]: 0.7 });
  g.must(g.act(M, T3));
  g.must(g.act(D, D));
  g.advanceTo('vote');
  for (const voter of [T1, D]) g.must(g.vote(voter, M));
  g.must(g.vote(M, T1));
  expect(g.state.outcome).toEqual({ kind: 'win', faction: 'town' });
  return { state: g.state, M, T1, T2, T3, D };
}

describe('belief accuracy', () => {
  it('GIVEN a running game WHEN scored THEN there is nothing to score yet (the truth is not out)', () => {
    const g = TestGame.started(['mafia', 'townsperson', 'townsperson']);
    expect(beliefAccuracy(g.state)).toBeNull();
  });

  it("GIVEN a finished game with the seats' suspicions WHEN scored THEN each seat's last read of each day gets its Brier score, the uniform prior's and whether its top suspect was Mafia", () => {
    const { state, M, T1, T3 } = playedGame();
    const reads = beliefAccuracy(state)!;
    expect(reads.map((r) => r.playerId)).toEqual([M, T1, T3].map((p) => p.id).sort((a, b) => a.localeCompare(b)));
    const of = (p: PlayerState) => reads.find((r) => r.playerId === p.id)!;

    const [t1day1, t1day2] = of(T1).days;
    // Day 1: (0.2² + 0.4² + 0.2² + 0.1²) / 4; uniform 1/4 Mafia: (0.75² + 3 × 0.25²) / 4.
    expect(t1day1).toMatchObject({ day: 1, scored: 4, topSuspectId: of(M).playerId, topSuspectMafia: true });
    expect(t1day1!.brier).toBeCloseTo(0.0625, 10);
    expect(t1day1!.priorBrier).toBeCloseTo(0.1875, 10);
    // Day 2: T2 is revealed, so M, T3 and D are scored; D at the uniform 1/3: (0.6² + 0.7² + (1/3)²) / 3.
    expect(t1day2).toMatchObject({ day: 2, scored: 3, topSuspectId: T3.id, topSuspectMafia: false });
    expect(t1day2!.brier).toBeCloseTo((0.36 + 0.49 + 1 / 9) / 3, 10);
    expect(t1day2!.priorBrier).toBeCloseTo(2 / 9, 10);

    // A tie at the top is no top suspect.
    expect(of(T3).days).toEqual([expect.objectContaining({ day: 1, topSuspectId: null, topSuspectMafia: null })]);
    expect(of(T3).days[0]!.brier).toBeCloseTo((0.16 + 0.36 + 0.01 + 0.01) / 4, 10);

    // The Mafia seat is scored on the town (all truly 0) against what it knew: all of them town.
    const [mDay1] = of(M).days;
    expect(mDay1).toMatchObject({ day: 1, scored: 4, topSuspectMafia: null, priorBrier: 0 });
    expect(mDay1!.brier).toBeCloseTo((0.09 + 0.36 + 0.25 + 0.04) / 4, 10);

    expect(meanOverDays(reads, (d) => d.brier)).toBeCloseTo((0.0625 + (0.36 + 0.49 + 1 / 9) / 3 + 0.135 + 0.185) / 4, 10);
  });

  it("GIVEN that game WHEN the director's cut is written THEN each AI seat's read is one line with its Brier score and the days its top suspect was right", () => {
    const { state, M, T1 } = playedGame();
    const content = directorsCutFile(state, 'Test')!.content;
    expect(content).toContain('## How the AI seats read the table');
    const line = (p: PlayerState) => content.split('\n').find((l) => l.startsWith(`- **${p.name}**`));
    // Day 1 0.0625, day 2 0.3204: 0.19 on average; the uniform guess 0.1875 and 0.2222.
    expect(line(T1)).toBe(
      `- **${T1.name}** (Townsperson): read the table: 0.19 Brier (day 1 0.06, day 2 0.32; a uniform guess: 0.20), top suspect right on day 1.`,
    );
    expect(line(M)).toBe(
      `- **${M.name}** (Mafia): read the table: 0.18 Brier (day 1 0.18; what it knew: 0.00); as Mafia it knows its team, so this is the town's eye it plays, not a guess, and there is no top suspect to score.`,
    );
  });

  it('GIVEN a Mafia seat with a teammate WHEN scored THEN its read is set against what it knew (its team Mafia, everyone else town), not the public Mafia share, and the Town seats are the figure apart from it', () => {
    const g = TestGame.started(['mafia', 'mafia', 'townsperson', 'townsperson', 'townsperson', 'doctor']);
    const [M1, M2] = [0, 1].map((n) => g.by('mafia', n)) as [PlayerState, PlayerState];
    const [T1, T2, T3] = [0, 1, 2].map((n) => g.by('townsperson', n)) as [PlayerState, PlayerState, PlayerState];
    const D = g.by('doctor');
    const think = (seat: PlayerState, suspicion: Record<string, number>) =>
      g.must(
        engine.recordReasoning(g.state, {
          playerId: seat.id,
          decision: 'd',
          text: 't',
          at: g.at,
          phase: 'vote',
          day: g.state.day,
          suspicion,
        }),
      );
    g.advanceTo('vote');
    // M1 knows M2; it plays the town's eye on the rest and says nothing of D.
    think(M1, { [M2.id]: 1, [T1.id]: 0.5, [T2.id]: 0.2, [T3.id]: 0.3 });
    think(T1, { [M1.id]: 0.7, [M2.id]: 0.3, [T2.id]: 0.3, [T3.id]: 0.2, [D.id]: 0.1 });
    for (const voter of [M2, T1, T2, T3, D]) g.must(g.vote(voter, M1));
    g.must(g.vote(M1, T1));
    g.advanceTo('vote');
    for (const voter of [T1, T2, T3, D]) g.must(g.vote(voter, M2));
    g.must(g.vote(M2, T1));
    expect(g.state.outcome).toEqual({ kind: 'win', faction: 'town' });

    const reads = beliefAccuracy(g.state)!;
    const { town, mafia } = bySide(reads);
    expect(town.map((r) => r.playerId)).toEqual([T1.id]);
    expect(mafia.map((r) => r.playerId)).toEqual([M1.id]);
    // M1: T1, T2, T3 and D scored (D at its prior, 0); the public share would have been 2/5, but M1 knew better.
    const [m1] = mafia[0]!.days;
    expect(m1).toMatchObject({ day: 1, scored: 4, priorBrier: 0, topSuspectMafia: null });
    expect(m1!.brier).toBeCloseTo((0.25 + 0.04 + 0.09 + 0) / 4, 10);
    // T1 against the uniform 2/5: ((0.6² × 2) + (0.4² × 3)) / 5.
    expect(meanOverDays(town, (d) => d.brier)).toBeCloseTo((0.09 + 0.49 + 0.09 + 0.04 + 0.01) / 5, 10);
    expect(meanOverDays(town, (d) => d.priorBrier)).toBeCloseTo((0.36 * 2 + 0.16 * 3) / 5, 10);
  });
});
