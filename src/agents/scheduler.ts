/**
 * Who speaks next in the day discussion, with no extra model calls: it uses the
 * `urgency` each seat returned with its last speech (seed 001 / Werewolf Arena's bid,
 * without the bidding round-trip).
 */
export interface SpeakerCandidate {
  readonly id: string;
  readonly name: string;
  readonly seat: number;
  /** Times this seat has spoken today. */
  readonly spoken: number;
  /** Urgency returned with its last speech today, if it spoke. */
  readonly urgency: number | null;
}

export interface SchedulerInput {
  readonly candidates: readonly SpeakerCandidate[];
  /** The latest public speech today (anyone's, humans' too), to find who was addressed. */
  readonly lastSpeech: { readonly speakerId: string; readonly text: string } | null;
  readonly day: number;
  /** Cap on messages per AI seat per day. */
  readonly maxPerSeat: number;
  /** Urgency a seat needs to speak again once everyone has spoken. */
  readonly replyUrgency?: number;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Names whose pattern is kept; past it the cache starts over (a game has at most 24). */
const PATTERNS_KEPT = 1000;
const patterns = new Map<string, RegExp>();

/** Whether `text` names `name` as a whole word (patterns are cached: this runs every speaking turn). */
function mentions(text: string, name: string): boolean {
  let pattern = patterns.get(name);
  if (!pattern) {
    if (patterns.size >= PATTERNS_KEPT) patterns.clear();
    pattern = new RegExp(`(^|[^\\p{L}\\p{N}])${escape(name)}(?![\\p{L}\\p{N}])`, 'iu');
    patterns.set(name, pattern);
  }
  return pattern.test(text);
}

/** The next AI seat to speak, or null when the discussion has run its course. */
export function nextSpeaker(input: SchedulerInput): SpeakerCandidate | null {
  const open = input.candidates.filter((c) => c.spoken < input.maxPerSeat);
  if (open.length === 0) return null;
  const last = input.lastSpeech;
  // Whoever was just addressed or accused by name answers first.
  if (last) {
    const addressed = open.filter((c) => c.id !== last.speakerId && mentions(last.text, c.name));
    const answerer = firstBy(addressed, (a, b) => a.spoken - b.spoken || a.seat - b.seat);
    if (answerer) return answerer;
  }
  const silent = open.filter((c) => c.spoken === 0);
  if (silent.length > 0) {
    // Everyone speaks once; the opening seat moves round the table day by day.
    const n = input.candidates.length;
    const offset = (input.day - 1) % Math.max(1, n);
    return firstBy(silent, (a, b) => turnOrder(a, offset, n) - turnOrder(b, offset, n));
  }
  const threshold = input.replyUrgency ?? 3;
  const eager = open.filter((c) => (c.urgency ?? 0) >= threshold && c.id !== last?.speakerId);
  return firstBy(eager, (a, b) => (b.urgency ?? 0) - (a.urgency ?? 0) || a.spoken - b.spoken || a.seat - b.seat);
}

/** A seat's place in today's opening round, which starts `offset` seats on. */
function turnOrder(c: SpeakerCandidate, offset: number, n: number): number {
  return (c.seat - 1 - offset + n * 2) % Math.max(1, n);
}

/** The first candidate in `compare`'s order (as a stable sort puts it), or null when there are none: one pass, no sorted copy. */
function firstBy(
  candidates: readonly SpeakerCandidate[],
  compare: (a: SpeakerCandidate, b: SpeakerCandidate) => number,
): SpeakerCandidate | null {
  let first: SpeakerCandidate | null = null;
  for (const c of candidates) if (first === null || compare(c, first) < 0) first = c;
  return first;
}
