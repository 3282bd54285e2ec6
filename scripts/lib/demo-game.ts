/** The demo's game and transcript, apart from its command line, so a test can play the same game in-process. */
import { directorsCut } from '../../src/agents/directors-cut.ts';
import type { AiSeat } from '../../src/agents/ai-seats.ts';
import type { Summarizer } from '../../src/agents/summary.ts';
import { heuristicBrain } from '../../src/agents/heuristic/brain.ts';
import { narrate, type GameState } from '../../src/game/index.ts';
import type { AiDriverOptions } from '../../src/agents/driver/ai-driver.ts';
import { err, ok, type Result } from '../../src/result.ts';
import { playHeadless } from '../../src/session/headless-game.ts';
import type { DemoPersona } from './demo-personas.ts';

/** The starter personas played by the offline brain. */
export function offlineSeats(personas: readonly DemoPersona[]): AiSeat[] {
  return personas.map((p, i) => {
    const offline = heuristicBrain(p.voice);
    return { id: `seat${i + 1}`, name: p.name, brain: offline, offline };
  });
}

export interface DemoOptions {
  readonly seed: number;
  readonly seats: readonly AiSeat[];
  readonly summarizer?: Summarizer;
  readonly onFallback?: AiDriverOptions['onFallback'];
}

/** Plays the demo's game; the same seed and seats play the same game. */
export async function playDemo(options: DemoOptions): Promise<Result<GameState, string>> {
  const result = await playHeadless({
    gameId: `demo-${options.seed}`,
    seed: options.seed,
    seats: options.seats,
    startAt: Date.UTC(2026, 0, 1),
    ...(options.summarizer && { summarizer: options.summarizer }),
    ...(options.onFallback && { driver: { onFallback: options.onFallback } }),
  });
  return result.ok ? ok(result.value) : err(result.error);
}

/** What the demo prints: a title, every public event told, then the director's cut. */
export function demoTranscript(state: GameState, players: number, seed: number): string[] {
  const lines = [`# Dramatis demo — ${players} players, seed ${seed}`, ''];
  for (const event of state.log) {
    if (event.visibility.kind !== 'public' || event.type === 'player_joined') continue;
    const line = narrate(state, event);
    if (line) lines.push(line);
  }
  lines.push('', "# Director's cut", ...directorsCut(state));
  return lines;
}
