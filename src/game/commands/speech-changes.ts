import { ok, type Result } from '../../result.ts';
import { overChatLimit } from '../chat-limit.ts';
import { fail, type Change, type GameError } from '../errors.ts';
import { speechOf } from '../speech-rewrites.ts';
import type { GameState } from '../state.ts';
import { Transition } from '../transition.ts';
import { checkText, MAX_SPEECH_LENGTH, notOver } from './play.ts';

const NOT_TAKEN = 'That message is not part of the game.';

/** Whether a phase has begun since the event at `seq` (the phase it was said in is over). */
function phaseOverSince(state: GameState, seq: number): boolean {
  for (let i = state.log.length - 1; i >= seq; i--) if (state.log[i]?.type === 'phase_started') return true;
  return false;
}

/**
 * A person changed a message the game took (`ref`, as `speak` was given it). While the phase it
 * was said in lasts, the new words replace the old ones everywhere (marked edited); after that the
 * record keeps what was said when it counted, and the edit is refused (`wrong_phase`). The new
 * words are held to the same limits as a new message; the same words again change nothing.
 */
export function editSpeech(state: GameState, input: { ref: string; text: string; at: number }): Result<Change, GameError> {
  const over = notOver(state);
  if (over) return over;
  const speech = speechOf(state.log, input.ref);
  if (!speech || speech.payload.deleted) return fail('no_speech', NOT_TAKEN);
  if (phaseOverSince(state, speech.seq)) {
    return fail('wrong_phase', 'The phase that message was said in is over: the game keeps it as it was said.');
  }
  const text = checkText(input.text, MAX_SPEECH_LENGTH, 'message');
  if (!text.ok) return text;
  if (text.value === speech.payload.text) return ok({ state, events: [] });
  const speaker = speech.payload.playerId;
  const human = state.players.find((p) => p.id === speaker)?.kind === 'human';
  if (human && speech.payload.channel === 'town') {
    const limited = overChatLimit(state, speaker, { characters: text.value.length }, speech.seq);
    if (limited) return limited;
  }
  const t = new Transition(state, input.at);
  t.emit({ type: 'speech_edited', payload: { seq: speech.seq, text: text.value } }, speech.visibility);
  return t.done();
}

/**
 * Messages the game took were deleted (by their author or a moderator, one or in bulk): their
 * words leave the record at any time, even after their phase or the game has ended, since
 * nothing is ever shown again against its author's will. Refs the game never took are ignored.
 */
export function deleteSpeeches(state: GameState, input: { refs: readonly string[]; at: number }): Result<Change, GameError> {
  const t = new Transition(state, input.at);
  for (const ref of new Set(input.refs)) {
    const speech = speechOf(t.state.log, ref);
    if (speech && !speech.payload.deleted) t.emit({ type: 'speech_deleted', payload: { seq: speech.seq } }, speech.visibility);
  }
  return t.done();
}
