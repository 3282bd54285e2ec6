import { describe, expect, it } from 'vitest';
import * as engine from '../../src/game/index.ts';
import type { GameState } from '../../src/game/index.ts';
import { heatColour } from '../../src/report/palette.ts';
import { tagged, type Scene } from '../../src/report/scene.ts';
import { suspicionDays, suspicionMapScene } from '../../src/report/suspicion-map.ts';
import { TestGame } from '../support/test-game.ts';
import { headlessGame, scriptedGame, trueFaction } from './games.ts';

/** Every cell of one day as "seat>player=value" ("-" where the seat rated no one). */
function cellsOn(scene: Scene, day: number): string[] {
  const read = tagged(scene, { part: 'cell', day: String(day) }).map((c) => `${c.tags?.seat}>${c.tags?.player}=${c.tags?.suspicion}`);
  const unread = tagged(scene, { part: 'no-read', day: String(day) }).map((c) => `${c.tags?.seat}>${c.tags?.player}=-`);
  return [...read, ...unread].sort();
}

function expectedCells(state: GameState, seats: readonly string[], reading: (seat: string) => Record<string, number>): string[] {
  return seats.flatMap((seat) => state.players.map((p) => `${seat}>${p.id}=${reading(seat)[p.id] ?? '-'}`)).sort();
}

describe('the suspicion heatmap of a scripted game', () => {
  it('GIVEN AI seats that recorded suspicions at night, by day and at the vote WHEN drawn THEN each day shows every seat’s last reading of that day (night d counts for day d), for the seats still in the game or lynched that day', () => {
    const { t, recorded, lynched, abstainer } = scriptedGame();
    const scene = suspicionMapScene(t.state, 'Game')!;
    const ai = t.state.players.filter((p) => p.kind === 'ai');
    const stillIn = (day: number) =>
      ai.filter((p) => p.death === null || p.death.day > day || (p.death.day === day && p.death.cause === 'lynch'));
    const lastBy = (day: number) => (seat: string) => {
      for (let d = day; d >= 1; d--) {
        const r = recorded.get(d)?.get(seat);
        if (r) return r;
      }
      throw new Error(`${seat} recorded nothing by day ${day}`);
    };

    for (const day of [1, 2]) {
      const rows = stillIn(day).map((p) => p.id);
      expect(tagged(scene, { part: 'row', day: String(day) }).map((r) => r.tags?.seat)).toEqual(rows);
      expect(cellsOn(scene, day)).toEqual(expectedCells(t.state, rows, lastBy(day)));
    }
    // The night-2 kill took the abstainer out of day 2; the lynched of day 1 is only in day 1.
    expect(tagged(scene, { part: 'row', day: '2', seat: abstainer.id })).toEqual([]);
    expect(tagged(scene, { part: 'row', day: '2', seat: lynched.id })).toEqual([]);
    for (const cell of tagged(scene, { part: 'cell' }))
      expect(cell.kind === 'rect' && cell.fill).toBe(heatColour(Number(cell.tags?.suspicion)));
  });

  it('GIVEN the first AI seat also recorded at the vote WHEN drawn THEN day 1 shows its vote-time reading, not its earlier one', () => {
    const { t, recorded } = scriptedGame();
    const first = t.state.players.find((p) => p.kind === 'ai')!;
    const atVote = recorded.get(1)!.get(first.id)!;
    expect(Object.values(atVote).every((v) => v >= 0.5 && v < 0.6)).toBe(true);
    const days = suspicionDays(t.state)!;
    expect(days[0]!.rows.find((r) => r.seatId === first.id)?.suspicion).toEqual(atVote);
  });

  it('GIVEN one Mafia player WHEN drawn THEN exactly that column is outlined on every day', () => {
    const { t, mafia } = scriptedGame();
    const scene = suspicionMapScene(t.state, 'Game')!;
    for (const day of ['1', '2']) expect(tagged(scene, { part: 'mafia-column', day }).map((s) => s.tags?.player)).toEqual([mafia.id]);
  });

  it('GIVEN the only AI seat is killed on night 1 WHEN drawn THEN day 1 says no AI seat was left to read the table', () => {
    const t = TestGame.seated(
      ['A', 'B', 'C', 'D'].map((name, i) => ({ name, kind: i === 0 ? ('ai' as const) : ('human' as const) })),
      ['mafia', 'townsperson', 'townsperson', 'townsperson'],
    );
    const ai = t.player('p1');
    expect(ai.role).toBe('townsperson'); // the deal of seed 7: the AI seat is not the Mafia
    t.must(engine.recordReasoning(t.state, { playerId: ai.id, decision: 'a move', text: 'why', at: t.at, suspicion: { p2: 0.4 } }));
    t.must(t.act(t.by('mafia'), ai));
    t.advanceTo('vote');
    for (const p of t.state.players.filter((p) => p.alive && p.role !== 'mafia')) t.must(t.vote(p, t.by('mafia')));
    t.advance();
    expect(t.state.phase).toBe('ended');
    const scene = suspicionMapScene(t.state, 'Game')!;
    expect(tagged(scene, { part: 'row' })).toEqual([]);
    expect(tagged(scene, { part: 'empty', day: '1' })).toHaveLength(1);
  });

  it('GIVEN a game of people only WHEN drawn THEN there is no heatmap', () => {
    const t = TestGame.started(['mafia', 'townsperson', 'townsperson']);
    t.must(t.act(t.by('mafia'), t.by('townsperson')));
    expect(t.state.phase).toBe('ended');
    expect(suspicionMapScene(t.state, 'Game')).toBeNull();
  });

  it('GIVEN AI seats whose decisions kept no suspicions (a log from before they were kept) WHEN drawn THEN there is no heatmap', () => {
    const t = TestGame.seated(
      [
        { name: 'A', kind: 'ai' },
        { name: 'B', kind: 'ai' },
        { name: 'C', kind: 'human' },
      ],
      ['mafia', 'townsperson', 'townsperson'],
    );
    for (const p of t.state.players)
      if (p.kind === 'ai') t.must(engine.recordReasoning(t.state, { playerId: p.id, decision: 'a move', text: 'why', at: t.at }));
    t.must(t.act(t.by('mafia'), t.by('townsperson')));
    expect(suspicionMapScene(t.state, 'Game')).toBeNull();
  });
});

describe('the suspicion heatmap of a game played by the offline brain', () => {
  it('GIVEN a finished all-AI game WHEN drawn THEN every cell is the seat’s suspicion from its last decision of that day or before, and the true Mafia columns are outlined', async () => {
    const state = await headlessGame(8, 0, 42);
    const scene = suspicionMapScene(state, 'Game')!;
    const mafia = state.players.filter((p) => trueFaction(state, p.id) === 'mafia').map((p) => p.id);
    expect(mafia.length).toBeGreaterThan(0);
    for (let day = 1; day <= state.day; day++) {
      const rows = tagged(scene, { part: 'row', day: String(day) }).map((r) => r.tags!.seat!);
      expect(rows.length).toBeGreaterThan(0);
      const last = (seat: string) => {
        const mine = state.log.filter((e) => e.type === 'reasoning' && e.payload.playerId === seat && e.payload.day <= day);
        const found = mine.at(-1);
        return found?.type === 'reasoning' ? (found.payload.suspicion ?? {}) : {};
      };
      expect(cellsOn(scene, day)).toEqual(expectedCells(state, rows, last));
      expect(tagged(scene, { part: 'mafia-column', day: String(day) }).map((s) => s.tags?.player)).toEqual(mafia);
    }
  });
});
