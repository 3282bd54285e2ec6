import { beforeAll, describe, expect, it } from 'vitest';
import type { Brain } from '../../src/agents/decision.ts';
import * as engine from '../../src/game/index.ts';
import { directorsCutFile } from '../../src/report/markdown.ts';
import { replayModel } from '../../src/report/replay-model.ts';
import { privatelyKnown } from '../../src/report/replay-spoilers.ts';
import { finishedGame } from './finished-game.ts';

/** A seat that guesses the first other living seat is the Doctor, on top of the offline brain's own guesses. */
const guessingDoctor =
  (brain: Brain): Brain =>
  (request, rng) => {
    const decision = brain(request, rng);
    const other = request.view.seats.find((s) => s.alive && s.id !== request.view.me.id && s.knownRole === null);
    if (!other) return decision;
    const read = decision.beliefs[other.id] ?? { suspicion: 0.3, trust: 0.5, reason: 'a hunch' };
    return { ...decision, beliefs: { ...decision.beliefs, [other.id]: { ...read, roleGuess: 'doctor' } } };
  };

describe('role guesses and blocs after the game', () => {
  let state: engine.GameState;
  beforeAll(async () => {
    state = await finishedGame(7, 3, { 0: { brain: guessingDoctor }, 1: { brain: guessingDoctor } });
  });

  it('GIVEN seats that guessed roles WHEN their decisions are recorded THEN each reasoning event carries its guesses', () => {
    const guessed = state.log.filter((e) => e.type === 'reasoning' && e.payload.playerId === 'seat1' && e.payload.roleGuesses);
    expect(guessed.length).toBeGreaterThan(0);
    for (const e of guessed) if (e.type === 'reasoning') expect(Object.values(e.payload.roleGuesses ?? {})).toContain('doctor');
  });

  it('GIVEN a finished game WHEN the director’s cut is written THEN under each seat’s read of the table are its last guesses, marked right or wrong, and its blocs when it saw any', () => {
    const cut = directorsCutFile(state, 'Guesses')!.content;
    const section = cut.slice(cut.indexOf('## How the AI seats read the table'), cut.indexOf('## Behind the scenes'));
    const last = state.log.findLast((e) => e.type === 'reasoning' && e.payload.playerId === 'seat1' && !!e.payload.roleGuesses);
    expect(last?.type).toBe('reasoning');
    if (last?.type !== 'reasoning') return;
    for (const [id, role] of Object.entries(last.payload.roleGuesses ?? {})) {
      const player = state.players.find((p) => p.id === id)!;
      const mark = player.role === role ? '(right)' : `(wrong: ${engine.getRole(player.role!).name})`;
      expect(section).toContain(`${player.name} likely ${engine.getRole(role).name} ${mark}`);
    }
    const withBlocs = state.log.findLast((e) => e.type === 'reasoning' && !!e.payload.blocs);
    if (withBlocs?.type === 'reasoning') expect(section).toContain('voting blocs:');
  });

  it('GIVEN minds with guesses WHEN the replay is built THEN each shows its guesses by player, and a mind guessing a player whose role its seat knew in private is withheld', () => {
    const model = replayModel(state, 'Guesses')!;
    const known = privatelyKnown(state);
    const minds = model.entries.flatMap((e) => (e.kind === 'turn' && e.mind ? [{ seat: e.playerId, mind: e.mind }] : []));
    const guessing = minds.filter(({ mind }) => Object.keys(mind.guesses).length > 0);
    expect(guessing.length).toBeGreaterThan(0);
    expect(guessing.some(({ mind }) => Object.values(mind.guesses).includes('Doctor'))).toBe(true);
    for (const { seat, mind } of guessing)
      if (Object.keys(mind.guesses).some((id) => known(seat, mind.seq).has(id))) expect(mind.spoiler).toBe(true);
  });

  it('GIVEN a reasoning event written before guesses and blocs existed WHEN the log is read THEN it parses, with no guesses', () => {
    const old = {
      type: 'reasoning',
      seq: 9,
      at: 0,
      visibility: { kind: 'director' },
      payload: { playerId: 'seat1', phase: 'day', day: 1, decision: 'speak', text: 'Hmm.', suspicion: { seat2: 0.4 } },
    };
    const parsed = engine.GameEventSchema.safeParse(old);
    expect(parsed.success).toBe(true);
    expect(parsed.success && parsed.data.type === 'reasoning' && parsed.data.payload.roleGuesses).toBeUndefined();
  });
});
