import type { GameEvent, PlayerView, RoleId } from '../../game/index.ts';
import { ROLE_IDS } from '../../game/index.ts';

/** What one public speech says, as far as simple patterns can tell. */
export interface SpeechReading {
  readonly speakerId: string;
  readonly day: number;
  readonly roleClaim: RoleId | null;
  /** Claimed investigation results: target → result. */
  readonly results: ReadonlyMap<string, 'mafia' | 'innocent'>;
  /** Players this speech points a finger at. */
  readonly accused: readonly string[];
}

export interface PublicRecord {
  readonly speeches: readonly SpeechReading[];
  /** Latest role claim per player. */
  readonly claims: ReadonlyMap<string, RoleId>;
  /** Claimed results, keyed by the claimer. */
  readonly claimedResults: ReadonlyMap<string, ReadonlyMap<string, 'mafia' | 'innocent'>>;
  /** accuser → accused ids (with repeats) */
  readonly accusations: ReadonlyMap<string, readonly string[]>;
  /** Finished votes: who voted whom, and who was lynched. */
  readonly votes: readonly { day: number; lynchedId: string | null; ballots: ReadonlyMap<string, string> }[];
  readonly nightKills: readonly string[];
}

const ROLE_WORDS = ROLE_IDS.join('|');
const CLAIM = new RegExp(`\\bI(?:'m|’m| am)(?: the| a| an)? (${ROLE_WORDS})\\b`, 'i');
const FINGER = /\b(suspect|suspicious|sus|vote|voting|lynch|mafia|scum|lying|liar|guilty)\b/i;
const CLEARING = /\b(innocent|clean|cleared|trust|town)\b/i;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface NamePattern {
  readonly id: string;
  readonly mention: RegExp;
  readonly result: RegExp;
}

// Compiling these is costly and every view is new, so they are cached by the roster they match.
const patternCache = new Map<string, NamePattern[]>();
function namePatterns(view: PlayerView): NamePattern[] {
  const key = view.seats.map((s) => `${s.id}\u0000${s.name}`).join('\u0001');
  let patterns = patternCache.get(key);
  if (!patterns) {
    if (patternCache.size > 512) patternCache.clear();
    patterns = view.seats.map((s) => ({
      id: s.id,
      mention: new RegExp(`(^|[^\\p{L}\\p{N}])${escape(s.name)}(?![\\p{L}\\p{N}])`, 'iu'),
      result: new RegExp(
        `${escape(s.name)}\\W+(?:is|was|came back|checked out as|=)\\W+(?:a\\W+|an\\W+)?(mafia|godfather|innocent|town|clean)`,
        'iu',
      ),
    }));
    patternCache.set(key, patterns);
  }
  return patterns;
}

// Speech events are shared between views of the same game, so each is read once.
const readings = new WeakMap<GameEvent, SpeechReading>();

function readSpeech(view: PlayerView, event: Extract<GameEvent, { type: 'speech' }>, day: number): SpeechReading {
  const cached = readings.get(event);
  if (cached) return cached;
  const text = event.payload.text;
  const claimMatch = CLAIM.exec(text);
  const roleClaim = claimMatch ? (claimMatch[1]!.toLowerCase() as RoleId) : null;
  const results = new Map<string, 'mafia' | 'innocent'>();
  const accused: string[] = [];
  const pointing = FINGER.test(text);
  for (const p of namePatterns(view)) {
    if (p.id === event.payload.playerId || !p.mention.test(text)) continue;
    const result = p.result.exec(text);
    if (result) {
      const word = result[1]!.toLowerCase();
      results.set(p.id, word === 'mafia' || word === 'godfather' ? 'mafia' : 'innocent');
    }
    if (pointing && results.get(p.id) !== 'innocent' && !(CLEARING.test(text) && !result)) accused.push(p.id);
  }
  const reading = { speakerId: event.payload.playerId, day, roleClaim, results, accused };
  readings.set(event, reading);
  return reading;
}

const RELEVANT = new Set<GameEvent['type']>(['phase_started', 'speech', 'vote_resolved', 'player_died']);

// The record reads public events only, so every seat shares it until the next relevant event.
const records = new WeakMap<GameEvent, PublicRecord>();

export function readRecord(view: PlayerView): PublicRecord {
  let last: GameEvent | undefined;
  for (let i = view.events.length - 1; i >= 0; i--) {
    const e = view.events[i]!;
    if (RELEVANT.has(e.type) && e.visibility.kind === 'public') {
      last = e;
      break;
    }
  }
  const cached = last && records.get(last);
  if (cached) return cached;
  const record = buildRecord(view);
  if (last) records.set(last, record);
  return record;
}

function buildRecord(view: PlayerView): PublicRecord {
  const speeches: SpeechReading[] = [];
  const claims = new Map<string, RoleId>();
  const claimedResults = new Map<string, Map<string, 'mafia' | 'innocent'>>();
  const accusations = new Map<string, string[]>();
  const votes: { day: number; lynchedId: string | null; ballots: Map<string, string> }[] = [];
  const nightKills: string[] = [];
  let day = 0;
  for (const e of view.events) {
    if (e.type === 'phase_started') day = e.payload.day;
    else if (e.type === 'speech' && e.visibility.kind === 'public') {
      const r = readSpeech(view, e, day);
      speeches.push(r);
      if (r.roleClaim) claims.set(r.speakerId, r.roleClaim);
      if (r.results.size > 0 && claims.get(r.speakerId) === 'detective') {
        const mine = claimedResults.get(r.speakerId) ?? new Map<string, 'mafia' | 'innocent'>();
        for (const [target, result] of r.results) mine.set(target, result);
        claimedResults.set(r.speakerId, mine);
      }
      if (r.accused.length > 0) accusations.set(r.speakerId, [...(accusations.get(r.speakerId) ?? []), ...r.accused]);
    } else if (e.type === 'vote_resolved') {
      const ballots = new Map<string, string>();
      for (const group of e.payload.tally) for (const voter of group.voters) ballots.set(voter, group.targetId);
      votes.push({ day: e.payload.day, lynchedId: e.payload.lynchedId, ballots });
    } else if (e.type === 'player_died' && e.payload.cause === 'mafia') {
      nightKills.push(e.payload.playerId);
    }
  }
  return { speeches, claims, claimedResults, accusations, votes, nightKills };
}
