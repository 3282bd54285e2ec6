import type { GameEvent, GameEventOf } from './events.ts';

/** What is left of a message its author deleted, wherever the game shows it. */
export const DELETED_SPEECH = '(a message was deleted)';

type Speech = GameEventOf<'speech'>;

/** An edit or a deletion of a speech: the events that rewrite earlier entries of the log. */
export function isSpeechRewrite(e: GameEvent): e is GameEventOf<'speech_edited'> | GameEventOf<'speech_deleted'> {
  return e.type === 'speech_edited' || e.type === 'speech_deleted';
}

/** The speech a message became (`ref`), or undefined: the newest one, as a ref is never reused. */
export function speechOf(log: readonly GameEvent[], ref: string): Speech | undefined {
  for (let i = log.length - 1; i >= 0; i--) {
    const e = log[i] as GameEvent;
    if (e.type === 'speech' && e.payload.ref === ref) return e;
  }
  return undefined;
}

/**
 * The seqs of the entries `event` rewrites: an edit its speech; a deletion its speech and every
 * earlier edit of it (their words go too). Empty for any other event.
 */
export function rewrittenBy(log: readonly GameEvent[], event: GameEvent): number[] {
  if (event.type === 'speech_edited') return [event.payload.seq];
  if (event.type !== 'speech_deleted') return [];
  const target = event.payload.seq;
  const seqs = [target];
  for (let i = target; i < event.seq - 1 && i < log.length; i++) {
    const e = log[i] as GameEvent;
    if (e.type === 'speech_edited' && e.payload.seq === target) seqs.push(e.seq);
  }
  return seqs;
}

/** An entry as `event` leaves it (the entry itself when it is none of `event`'s business). */
function rewritten(entry: GameEvent, event: GameEventOf<'speech_edited'> | GameEventOf<'speech_deleted'>): GameEvent {
  if (entry.type === 'speech_edited') return { ...entry, payload: { seq: entry.payload.seq, text: DELETED_SPEECH } };
  if (entry.type !== 'speech') return entry;
  const { playerId, channel, ref } = entry.payload;
  const payload: Speech['payload'] =
    event.type === 'speech_edited'
      ? { ...entry.payload, text: event.payload.text, edited: true }
      : { playerId, channel, text: DELETED_SPEECH, ...(ref !== undefined && { ref }), deleted: true };
  return { ...entry, payload };
}

/**
 * Applies an edit or deletion to the entries it rewrites, in place, in a log the caller owns
 * (the fold's working copy, which already ends with `event`). New entry objects replace the old
 * ones, so whatever was worked out from the old ones (views, readings) sees they changed.
 */
export function applySpeechRewrite(log: GameEvent[], event: GameEvent): void {
  if (!isSpeechRewrite(event)) return;
  for (const seq of rewrittenBy(log, event)) {
    const entry = log[seq - 1];
    if (entry) log[seq - 1] = rewritten(entry, event);
  }
}
