import type { EventType, GameEvent } from '../game/index.ts';
import { must } from '../result.ts';

/** A seat's moves: what a decision may change besides what it says. */
const MOVES = new Set<EventType>(['vote_cast', 'night_action', 'mafia_proposal', 'nominated', 'nomination_seconded', 'defense_rested']);

/** What a move can set off within its own command (the vote that closes the day, the last night action). */
const CONSEQUENCES = new Set<EventType>([
  'vote_resolved',
  'player_died',
  'jester_won',
  'game_ended',
  'phase_started',
  'mafia_second_round',
  'mafia_decision',
  'investigation_result',
  'night_resolved',
]);

/** The seat whose own line an event is (what it said, voted, did or wrote), or null for what the game did. */
export function authorOf(e: GameEvent): string | null {
  switch (e.type) {
    case 'speech':
    case 'will_written':
    case 'defense_rested':
      return e.payload.playerId;
    case 'nominated':
      return e.payload.nominatorId;
    case 'nomination_seconded':
      return e.payload.seconderId;
    case 'vote_cast':
    case 'vote_withdrawn':
      return e.payload.voterId;
    case 'night_action':
    case 'mafia_proposal':
      return e.payload.actorId;
    default:
      return null;
  }
}

const isMoveBy = (e: GameEvent | undefined, playerId: string): e is GameEvent => !!e && MOVES.has(e.type) && authorOf(e) === playerId;
const isSpeechBy = (e: GameEvent | undefined, playerId: string): e is GameEvent => e?.type === 'speech' && authorOf(e) === playerId;

/**
 * For each AI decision (by the `seq` of its reasoning), the lines it put in the log: its words and its move.
 * The AI driver submits a decision as one command, words then move then reasoning, so they are
 * adjacent, with at most the move's own consequences between the move and the reasoning. Nothing
 * is matched by time: on a manual clock many commands share one instant. A decision that was late
 * or refused left no line; one with neither words nor move is a thought on its own.
 */
export function decisionLines(log: readonly GameEvent[]): Map<number, number[]> {
  const links = new Map<number, number[]>();
  log.forEach((e, i) => {
    if (e.type !== 'reasoning') return;
    const lines: number[] = [];
    links.set(e.seq, lines);
    if ((e.payload.outcome ?? 'counted') !== 'counted') return;
    const { playerId } = e.payload;
    let before = i - 1;
    let k = before;
    while (k >= 0 && CONSEQUENCES.has(must(log[k], 'a logged event').type)) k--;
    const move = log[k];
    // Consequences are skipped only behind the seat's own move: a decision without one set nothing off.
    if (isMoveBy(move, playerId)) {
      lines.push(move.seq);
      before = k - 1;
    }
    const words = log[before];
    if (isSpeechBy(words, playerId)) lines.unshift(words.seq);
  });
  return links;
}
