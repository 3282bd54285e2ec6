import type { AiSeat } from '../../src/agents/ai-seats.ts';
import type { Brain, SeatToolCall } from '../../src/agents/decision.ts';
import { houseSeats } from '../../src/agents/seats.ts';
import type { GameState } from '../../src/game/index.ts';
import { playHeadless } from '../../src/session/headless-game.ts';

/** Names and words a page must show as text, never run. */
export const HOSTILE_NAME = '<img src=x onerror=alert(1)>';
export const CLOSING_NAME = '</script><script>alert(2)</script>';

/** The tool calls a seat reports with every decision: what its model would have asked and been told. */
export const TOOL_CALLS: readonly SeatToolCall[] = [
  { name: 'vote_history', input: '{"player":"Basil"}', output: 'Day 1: Basil voted Ada.' },
  { name: 'read_transcript', input: '{"day":1}', output: '</script><b>not markup</b>' },
];

/** A seat that thinks with tools: the offline brain's decision, with tool calls reported. */
export const withTools =
  (brain: Brain): Brain =>
  (request, rng) => ({ ...brain(request, rng), toolCalls: TOOL_CALLS });

/** A seat that never says a word, in town or in the Mafia thread; it still votes and acts. */
export const silent =
  (brain: Brain): Brain =>
  (request, rng) => ({ ...brain(request, rng), speech: null });

/**
 * An all-AI game of house players played to the end with the offline brain, through the bot's own
 * session and AI driver. `seats` may rename a seat or change its brain (by index).
 */
export async function finishedGame(
  players: number,
  seed: number,
  seats: Record<number, { name?: string; brain?: (offline: Brain) => Brain }> = {},
): Promise<GameState> {
  const liveGame: AiSeat[] = houseSeats(players).map((seat, i) => {
    const change = seats[i];
    const brain = change?.brain ? change.brain(seat.offline) : seat.brain;
    return { ...seat, name: change?.name ?? seat.name, brain, offline: seat.offline };
  });
  const result = await playHeadless({ gameId: `replay-${players}-${seed}`, seed, seats: liveGame, startAt: Date.UTC(2026, 0, 1) });
  if (!result.ok) throw new Error(result.error);
  return result.value;
}
