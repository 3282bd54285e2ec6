/**
 * Names are chosen by people and may hold anything: newlines, control and direction-override
 * characters, lone surrogates, emoji. Pictures show them on one line, cut to fit with an ellipsis.
 */

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

// Characters XML 1.0 forbids or that would break a one-line label: controls, line and paragraph
// separators, direction overrides and isolates (a name must not reverse the text after it), U+FFFE/F.
const UNSHOWABLE = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069\uFFFE\uFFFF]+/gu;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** One line of text that XML can carry: unshowable characters become spaces, runs of spaces one. */
export function cleanText(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD').replace(UNSHOWABLE, ' ').replace(/\s+/g, ' ').trim();
}

// DejaVu Sans advances in ems, roughly: wide letters, capitals, the rest. East Asian and emoji
// characters take a full em where a fallback would draw them (here none is loaded: they stay blank).
const FULL =
  /[MWmw@\u2026\u1100-\u115F\u2E80-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]|\p{Extended_Pictographic}/u;
const NARROW = /[iljtfr.,:;'|!() ]/;
const CAPITAL = /\p{Lu}/u;
const BOLD_FACTOR = 1.1;

function emsOf(grapheme: string): number {
  if (FULL.test(grapheme)) return 1;
  if (NARROW.test(grapheme)) return 0.35;
  if (CAPITAL.test(grapheme)) return 0.75;
  return 0.62;
}

/** An estimate of the width of `text` in px, on the generous side so that fitted text never overflows. */
export function textWidth(text: string, size: number, bold = false): number {
  let ems = 0;
  for (const { segment } of graphemes.segment(text)) ems += emsOf(segment);
  return ems * size * (bold ? BOLD_FACTOR : 1);
}

const ELLIPSIS = '…';

/** `text` cleaned, and cut at a grapheme boundary with an ellipsis when wider than `maxWidth`. */
export function fitText(text: string, maxWidth: number, size: number, bold = false): string {
  const clean = cleanText(text);
  if (textWidth(clean, size, bold) <= maxWidth) return clean;
  const room = maxWidth - textWidth(ELLIPSIS, size, bold);
  let kept = '';
  let width = 0;
  for (const { segment } of graphemes.segment(clean)) {
    width += textWidth(segment, size, bold);
    if (width > room) break;
    kept += segment;
  }
  return `${kept.trimEnd()}${ELLIPSIS}`;
}
