import type { GameEvent, PlayerView, RoleId } from '../../game/index.ts';
import { isSpeechRewrite, perGame, ROLE_IDS } from '../../game/index.ts';
import { must } from '../../result.ts';

/** What one line says, as far as simple patterns can tell: the same for every game with the same roster. */
interface LineReading {
  readonly roleClaim: RoleId | null;
  /** Claimed investigation results: target → result. */
  readonly results: ReadonlyMap<string, 'mafia' | 'innocent'>;
  /** Players this speech points a finger at. */
  readonly accused: readonly string[];
  /** The player this speech last announces a vote or a lynch on ("Vote X", "my vote is heading to X"). */
  readonly voteFor: string | null;
}

/** What one public speech says. */
interface SpeechReading extends LineReading {
  readonly speakerId: string;
  readonly day: number;
}

export interface PublicRecord {
  readonly speeches: readonly SpeechReading[];
  /** Latest role claim per player. */
  readonly claims: ReadonlyMap<string, RoleId>;
  /** Claimed results, keyed by the claimer. */
  readonly claimedResults: ReadonlyMap<string, ReadonlyMap<string, 'mafia' | 'innocent'>>;
  /** accuser → accused ids (with repeats) */
  readonly accusations: ReadonlyMap<string, readonly string[]>;
  /** Finished votes: who voted whom (voter and target, in the tally's order), and who was lynched. */
  readonly votes: readonly { day: number; lynchedId: string | null; ballots: readonly (readonly [voter: string, target: string])[] }[];
  readonly nightKills: readonly string[];
}

const ROLE_WORDS = ROLE_IDS.join('|');
// "I was …" too: last words speak of the role in the past tense.
const CLAIM = new RegExp(`\\bI(?:'m|’m| am| was)(?: the| a| an)? (${ROLE_WORDS})\\b`, 'i');
const VOTE_WORD = /\b(?:vote|voting|lynch)/i;
// What may stand between a vote word and the name: "vote X", "my vote is heading to X", "lynch X".
const VOTE_LEAD =
  '\\b(?:(?:vote|voting|lynch(?:ing)?)(?:\\s+(?:is|goes))?(?:\\s+(?:heading|going))?(?:\\s+(?:to|on|for))?|vote\\s+right\\s+now\\s+it\\s+would\\s+be)\\s+';
// A claimed result needs one of these words; most speeches have none, so the per-name result patterns are skipped.
const RESULT_WORD = /mafia|godfather|innocent|town|clean/i;
const FINGER = /\b(suspect|suspicious|sus|vote|voting|lynch|mafia|scum|lying|liar|guilty)\b/i;
const CLEARING = /\b(innocent|clean|cleared|trust|town)\b/i;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface NamePattern {
  readonly id: string;
  readonly name: string;
  /** The lower-cased name for a cheap substring test first, or null where lower-casing changes its length. */
  readonly lower: string | null;
  readonly mention: RegExp;
  readonly result: RegExp;
  /** Global: a speech may announce several votes, and the last one counts. */
  readonly vote: RegExp;
}

/**
 * A roster's name patterns, and the readings of lines said at its table. The offline brain's
 * lines come from templates, so the same line comes back game after game (about four in five of
 * the lines of a thousand 7-seat bench games had been said before at the same table): reading one takes a dozen
 * Unicode-aware patterns, looking it up one Map get. Kept per roster, so one table's readings never
 * answer for another's; all are dropped once LINES_KEPT lines are kept, whatever the tables.
 */
interface Roster {
  readonly patterns: readonly NamePattern[];
  /** By speaker, then by line: the line itself is the key (an event's text hashes once), not a string built for the lookup. */
  readonly lines: Map<string, Map<string, LineReading>>;
}

const LINES_KEPT = 16_384;
let linesKept = 0;

// Compiling these is costly and every view is new, so they are cached by the roster they match.
const rosters = new Map<string, Roster>();
/**
 * Rosters whose patterns and readings are kept (about 17 KiB each once their lines are read); past
 * it the cache starts over. One roster per running table: more tables than this at once only read
 * their lines again. At 512 the soak's heap grew by a quarter after its first 100 games, as the cache filled.
 */
const ROSTERS_KEPT = 128;
let lastRoster: Roster = { patterns: [], lines: new Map() };
let lastSeats: PlayerView['seats'] | null = null;

/** Whether `patterns` were made for exactly these seats (ids and names, in order). */
function madeFor(patterns: readonly NamePattern[], seats: PlayerView['seats']): boolean {
  if (patterns.length !== seats.length) return false;
  for (let i = 0; i < seats.length; i++) {
    const p = patterns[i];
    const s = seats[i];
    if (p?.id !== s?.id || p?.name !== s?.name) return false;
  }
  return true;
}

function rosterOf(view: PlayerView): Roster {
  // A viewer's views share their seats until the table changes; every view of a game has the same
  // roster: comparing it is cheaper than building its key.
  if (view.seats === lastSeats) return lastRoster;
  lastSeats = view.seats;
  if (madeFor(lastRoster.patterns, view.seats)) return lastRoster;
  let key = '';
  for (const s of view.seats) key += `${s.id}\u0000${s.name}\u0001`;
  let roster = rosters.get(key);
  if (!roster) {
    if (rosters.size >= ROSTERS_KEPT) {
      rosters.clear();
      linesKept = 0;
    }
    roster = { patterns: view.seats.map(namePattern), lines: new Map() };
    rosters.set(key, roster);
  }
  lastRoster = roster;
  return roster;
}

function namePattern(s: PlayerView['seats'][number]): NamePattern {
  const name = escape(s.name);
  const lower = s.name.toLowerCase();
  return {
    id: s.id,
    name: s.name,
    lower: lower.length === s.name.length ? lower : null,
    mention: new RegExp(`(^|[^\\p{L}\\p{N}])${name}(?![\\p{L}\\p{N}])`, 'iu'),
    result: new RegExp(`${name}\\W+(?:is|was|came back|checked out as|=)\\W+(?:a\\W+|an\\W+)?(mafia|godfather|innocent|town|clean)`, 'iu'),
    vote: new RegExp(`${VOTE_LEAD}${name}(?![\\p{L}\\p{N}])`, 'giu'),
  };
}

/** Whether `text` (with `lower` its lower-cased form) names this player. */
function mentions(p: NamePattern, text: string, lower: string): boolean {
  return (p.lower === null || lower.includes(p.lower)) && p.mention.test(text);
}

/** The role a speech claims for its speaker ("I'm the Detective", "I was a Townsperson"), if any. */
export function claimedRole(text: string): RoleId | null {
  const word = CLAIM.exec(text)?.[1];
  return word === undefined ? null : (word.toLowerCase() as RoleId);
}

/** Whether `text` has a vote word at all: without one it announces no vote. */
export function mentionsVoting(text: string): boolean {
  return VOTE_WORD.test(text);
}

/** The player `text` last announces a vote or lynch on, never `speakerId` itself; null if none. */
export function announcedVote(view: PlayerView, text: string, speakerId: string): string | null {
  return mentionsVoting(text) ? readLine(rosterOf(view), speakerId, text).voteFor : null;
}

/** Of the players a speech mentions, the one its last vote announcement names. */
function lastVote(mentioned: readonly NamePattern[], text: string): string | null {
  let found: string | null = null;
  let at = -1;
  let length = 0;
  for (const p of mentioned) {
    p.vote.lastIndex = 0;
    for (let m = p.vote.exec(text); m; m = p.vote.exec(text)) {
      // At the same place the longer name wins ("Ann Lee" over "Ann").
      if (m.index > at || (m.index === at && m[0].length > length)) [found, at, length] = [p.id, m.index, m[0].length];
    }
  }
  return found;
}

/**
 * Values kept by event within one game: an event's place in the log (its seq) indexes it, and the
 * event itself, kept beside, confirms the entry is its own. Array slots rather than a WeakMap
 * entry per event: WeakMap insertion was 3 % of an offline game's time.
 */
class ByEvent<T> {
  private readonly events: (GameEvent | undefined)[] = [];
  private readonly values: (T | undefined)[] = [];

  get(e: GameEvent): T | undefined {
    return this.events[e.seq] === e ? this.values[e.seq] : undefined;
  }

  has(e: GameEvent): boolean {
    return this.events[e.seq] === e;
  }

  set(e: GameEvent, value: T): void {
    this.events[e.seq] = e;
    this.values[e.seq] = value;
  }
}

/** What has been read of one game; it is kept with the game. */
interface Memo {
  /** Speech events are shared between views of the same game, so each is read once. */
  readonly readings: ByEvent<SpeechReading>;
  /** The record up to each relevant event (see readRecord). */
  readonly records: ByEvent<Stored>;
}
const MEMO = Symbol('public record read');
const newMemo = (): Memo => ({ readings: new ByEvent(), records: new ByEvent() });

const memoOf = (first: GameEvent): Memo => perGame(first, MEMO, newMemo);

function readSpeech(memo: Memo, view: PlayerView, event: Extract<GameEvent, { type: 'speech' }>, day: number): SpeechReading {
  const cached = memo.readings.get(event);
  if (cached) return cached;
  const speakerId = event.payload.playerId;
  const line = readLine(rosterOf(view), speakerId, event.payload.text);
  const reading: SpeechReading = {
    speakerId,
    day,
    roleClaim: line.roleClaim,
    results: line.results,
    accused: line.accused,
    voteFor: line.voteFor,
  };
  memo.readings.set(event, reading);
  return reading;
}

/** What `text` says when `speakerId` says it at this roster's table; read once per roster. */
function readLine(roster: Roster, speakerId: string, text: string): LineReading {
  let said = roster.lines.get(speakerId);
  let line = said?.get(text);
  if (line === undefined) {
    if (linesKept >= LINES_KEPT) {
      for (const kept of rosters.values()) kept.lines.clear();
      lastRoster.lines.clear();
      linesKept = 0;
      said = undefined;
    }
    line = readNewLine(roster.patterns, speakerId, text);
    if (said === undefined) roster.lines.set(speakerId, (said = new Map<string, LineReading>()));
    said.set(text, line);
    linesKept++;
  }
  return line;
}

function readNewLine(patterns: readonly NamePattern[], speakerId: string, text: string): LineReading {
  const lower = text.toLowerCase();
  const results = new Map<string, 'mafia' | 'innocent'>();
  const accused: string[] = [];
  const mentioned = patterns.filter((p) => p.id !== speakerId && mentions(p, text, lower));
  const pointing = mentioned.length > 0 && FINGER.test(text);
  const resulting = mentioned.length > 0 && RESULT_WORD.test(text);
  // Whether the speech clears anyone is the same for every name it mentions: tested once, when first asked.
  let clearing: boolean | undefined;
  for (const p of mentioned) {
    const result = resulting ? p.result.exec(text) : null;
    const word = result?.[1]?.toLowerCase();
    if (word !== undefined) results.set(p.id, word === 'mafia' || word === 'godfather' ? 'mafia' : 'innocent');
    if (pointing && results.get(p.id) !== 'innocent' && !((clearing ??= CLEARING.test(text)) && !result)) accused.push(p.id);
  }
  const voteFor = mentioned.length > 0 && VOTE_WORD.test(text) ? lastVote(mentioned, text) : null;
  return { roleClaim: claimedRole(text), results, accused, voteFor };
}

// The record reads public events only, so every seat shares it until the next relevant event.
interface Stored {
  readonly record: PublicRecord;
  /** The day the record's last event fell on, to read on from there. */
  readonly day: number;
}

/** Public phases, speeches (and their edits and deletions), vote results and deaths: what the record reads. */
function relevant(e: GameEvent): boolean {
  const { type } = e;
  return (
    (type === 'phase_started' ||
      type === 'speech' ||
      type === 'vote_resolved' ||
      type === 'player_died' ||
      type === 'speech_edited' ||
      type === 'speech_deleted') &&
    e.visibility.kind === 'public'
  );
}

/**
 * Reads the public record of `view`. A new relevant event (every vote comes with a line now)
 * extends the latest record some seat already read instead of reading the whole log again.
 */
export function readRecord(view: PlayerView): PublicRecord {
  const { events } = view;
  let end = events.length - 1;
  while (end >= 0 && !relevant(events[end] as GameEvent)) end--;
  const last = events[end];
  const first = events[0];
  if (first === undefined) return EMPTY;
  const memo = memoOf(first);
  if (last === undefined) return extend(memo, null, view, 0).record;
  const { records } = memo;
  const cached = records.get(last);
  if (cached) return cached.record;
  // `last` has no record and nothing after it is relevant: this finds the latest read before it.
  let at = end - 1;
  // An edit or deletion changed a speech that records before it have read: read from the start.
  let rewritten = isSpeechRewrite(last);
  while (at >= 0 && !(relevant(events[at] as GameEvent) && records.has(events[at] as GameEvent))) {
    rewritten ||= isSpeechRewrite(events[at] as GameEvent);
    at--;
  }
  const read = rewritten ? undefined : events[at];
  const stored =
    read === undefined ? extend(memo, null, view, 0) : extend(memo, must(records.get(read), 'a record just found'), view, at + 1);
  records.set(last, stored);
  return stored.record;
}

const EMPTY: PublicRecord = {
  speeches: [],
  claims: new Map(),
  claimedResults: new Map(),
  accusations: new Map(),
  votes: [],
  nightKills: [],
};

/**
 * The record of `base` (or an empty one) followed by `view.events` from index `from` on.
 * Records are shared, so a part is copied only when a new event changes it.
 */
function extend(memo: Memo, base: Stored | null, view: PlayerView, from: number): Stored {
  const prev = base?.record ?? EMPTY;
  let speeches: SpeechReading[] | null = null;
  let claims: Map<string, RoleId> | null = null;
  let claimedResults: Map<string, ReadonlyMap<string, 'mafia' | 'innocent'>> | null = null;
  let accusations: Map<string, readonly string[]> | null = null;
  let votes: PublicRecord['votes'][number][] | null = null;
  let nightKills: string[] | null = null;
  let day = base?.day ?? 0;
  const { events } = view;
  for (let i = from; i < events.length; i++) {
    const e = events[i] as GameEvent;
    if (e.type === 'phase_started') day = e.payload.day;
    else if (e.type === 'speech' && e.visibility.kind === 'public') {
      const r = readSpeech(memo, view, e, day);
      (speeches ??= prev.speeches.slice()).push(r);
      if (r.roleClaim) (claims ??= new Map(prev.claims)).set(r.speakerId, r.roleClaim);
      if (r.results.size > 0 && (claims ?? prev.claims).get(r.speakerId) === 'detective') {
        claimedResults ??= new Map(prev.claimedResults);
        claimedResults.set(r.speakerId, new Map([...(claimedResults.get(r.speakerId) ?? []), ...r.results]));
      }
      if (r.accused.length > 0) {
        accusations ??= new Map(prev.accusations);
        accusations.set(r.speakerId, [...(accusations.get(r.speakerId) ?? []), ...r.accused]);
      }
    } else if (e.type === 'vote_resolved') {
      // A list, not a Map: every decision's reads walk it, and a voter is in one group only.
      const ballots: [string, string][] = [];
      for (const group of e.payload.tally) for (const voter of group.voters) ballots.push([voter, group.targetId]);
      (votes ??= prev.votes.slice()).push({ day: e.payload.day, lynchedId: e.payload.lynchedId, ballots });
    } else if (e.type === 'player_died' && e.payload.cause === 'mafia') {
      (nightKills ??= prev.nightKills.slice()).push(e.payload.playerId);
    }
  }
  const record: PublicRecord = {
    speeches: speeches ?? prev.speeches,
    claims: claims ?? prev.claims,
    claimedResults: claimedResults ?? prev.claimedResults,
    accusations: accusations ?? prev.accusations,
    votes: votes ?? prev.votes,
    nightKills: nightKills ?? prev.nightKills,
  };
  return { record, day };
}
