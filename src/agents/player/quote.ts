import { DELETED_SPEECH, type GameEventOf } from '../../game/index.ts';

/**
 * What people and persona authors wrote reaches a model only as quoted data. Angle brackets and
 * quotes are swapped so no text closes the tag it sits in; square brackets become round ones and
 * line breaks a visible " / ", so no name or text can start a line of its own that reads as an
 * engine line ("[vote] …", "[death] …") or a section ("# Ground rules").
 */
export function neutralise(text: string): string {
  return text
    .replace(/\r\n?|[\n\u2028\u2029\u0085]/g, ' / ')
    .replace(/</g, '‹')
    .replace(/>/g, '›')
    .replace(/"/g, '″')
    .replace(/\[/g, '(')
    .replace(/]/g, ')');
}

/** A player's words, in a tag that says whose they are. */
export function quoteSpeech(speaker: string, text: string): string {
  return `<speech player="${neutralise(speaker)}">${neutralise(text)}</speech>`;
}

/**
 * Authored text of several lines (a persona) inside a tag: each line starts with "> ", so none
 * can pass for a header or an engine line, and the tag cannot be closed from inside.
 */
export function quoteBlock(tag: string, text: string): string {
  const lines = text.split(/\r\n?|\n/).map((line) => `> ${neutralise(line)}`);
  return [`<${tag}>`, ...lines, `</${tag}>`].join('\n');
}

/**
 * A speech as a seat reads it: quoted; marked "(edited)" outside the tag when its author changed
 * it (so no one can write the mark themselves); an engine line in its place once its author
 * deleted it, since nothing of it is left to quote.
 */
export function speechLine(speaker: string, payload: GameEventOf<'speech'>['payload']): string {
  if (payload.deleted) return `[deleted] ${neutralise(speaker)}: ${DELETED_SPEECH}`;
  const quoted = quoteSpeech(speaker, payload.text);
  return payload.edited ? `${quoted} (edited)` : quoted;
}
