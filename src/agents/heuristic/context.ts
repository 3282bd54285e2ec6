import type { PlayerView, Rng } from '../../game/index.ts';
import { must } from '../../result.ts';
import type { Beliefs } from '../beliefs.ts';
import type { Decision, DecisionRequest, Voice } from '../decision.ts';
import { announcedVote, claimedRole, mentionsVoting, readRecord, type PublicRecord } from './reading.ts';
import { readSuspicion } from './suspicion.ts';
import { guessRoles } from './role-guesses.ts';

export type Seat = PlayerView['seats'][number];

/**
 * The voice without phrases that would announce a vote on someone here ("Lynch Ann!") or claim a
 * role ("I'm the Doctor"): a flourish never pledges a vote or says who the seat is.
 */
function quietVoice(view: PlayerView, voice: Voice): Voice {
  // Most voices keep every phrase: the list is copied only once one has to go.
  let phrases: string[] | null = null;
  for (let i = 0; i < voice.phrases.length; i++) {
    const p = voice.phrases[i] as string;
    const kind = phraseKind(p);
    const keep = kind === 'plain' || (kind === 'vote word' && announcedVote(view, p, view.me.id) === null);
    if (keep) phrases?.push(p);
    else phrases ??= voice.phrases.slice(0, i);
  }
  return phrases === null ? voice : { ...voice, phrases };
}

// A seat's phrases are the same every decision: whether one claims a role or has a vote word at
// all is read once (only a vote word needs the table's names to tell whether it announces a vote).
const phraseKinds = new Map<string, 'plain' | 'claim' | 'vote word'>();

/** Phrases whose kind is kept; past it the cache starts over (the starter personas have a few dozen). */
const PHRASE_KINDS_KEPT = 4096;

function phraseKind(phrase: string): 'plain' | 'claim' | 'vote word' {
  let kind = phraseKinds.get(phrase);
  if (kind === undefined) {
    if (phraseKinds.size >= PHRASE_KINDS_KEPT) phraseKinds.clear();
    kind = claimedRole(phrase) !== null ? 'claim' : mentionsVoting(phrase) ? 'vote word' : 'plain';
    phraseKinds.set(phrase, kind);
  }
  return kind;
}

/** What one decision knows; methods instead of closures, since this is built for every decision. */
export class Context {
  readonly record: PublicRecord;
  readonly beliefs: Beliefs;
  readonly voice: Voice | undefined;

  constructor(
    readonly req: DecisionRequest,
    readonly rng: Rng,
    voice: Voice | undefined,
  ) {
    this.record = readRecord(req.view);
    this.beliefs = readSuspicion(req.view, this.record, rng);
    guessRoles(req.view, this.record, this.beliefs);
    this.voice = voice && quietVoice(req.view, voice);
  }

  get view(): PlayerView {
    return this.req.view;
  }

  name(id: string): string {
    return this.seat(id)?.name ?? 'someone';
  }

  alive(id: string): boolean {
    return this.seat(id)?.alive ?? false;
  }

  private teamIds: Set<string> | null = null;

  /** This seat and its known teammates (only a Mafia seat knows any). */
  get team(): ReadonlySet<string> {
    return (this.teamIds ??= new Set([this.view.me.id, ...this.view.teammates.map((t) => t.id)]));
  }

  /** A table has a few seats: a scan costs less than building a map for each decision. */
  seat(id: string): Seat | undefined {
    for (const s of this.req.view.seats) if (s.id === id) return s;
    return undefined;
  }
}

export function suspicionOf(c: Context, id: string): number {
  return c.beliefs[id]?.suspicion ?? 0.5;
}

export function best<T>(items: readonly T[], score: (item: T) => number): T | undefined {
  let top: T | undefined;
  let topScore = -Infinity;
  for (const item of items) {
    const s = score(item);
    if (s > topScore) [top, topScore] = [item, s];
  }
  return top;
}

export function votesOn(view: PlayerView, id: string): number {
  let n = 0;
  const { votes } = view;
  for (const voter in votes) if (votes[voter] === id) n++;
  return n;
}

// Suspicions are rounded to hundredths: their two-decimal text is looked up, not formatted (toFixed is a runtime call).
const HUNDREDTHS = Array.from({ length: 101 }, (_, k) => (k / 100).toFixed(2));

function twoDecimals(x: number): string {
  const k = Math.round(x * 100);
  return k >= 0 && k <= 100 && k / 100 === x ? (HUNDREDTHS[k] as string) : x.toFixed(2);
}

/** The top suspects, for the private reasoning line (every decision writes one: ranked in place, no splice). */
export function summary(c: Context, limit = 3): string {
  const top: Seat[] = [];
  const reads: Beliefs[string][] = [];
  for (const seat of c.view.seats) {
    const belief = seat.alive ? c.beliefs[seat.id] : undefined;
    if (!belief) continue;
    let i = top.length;
    while (i > 0 && must(reads[i - 1], 'a ranked suspect').suspicion < belief.suspicion) i--;
    if (i >= limit) continue;
    // The last one falls off once the list is full; those from i on move down one.
    let j = top.length < limit ? top.length : limit - 1;
    for (; j > i; j--) {
      top[j] = top[j - 1] as Seat;
      reads[j] = reads[j - 1] as Beliefs[string];
    }
    top[i] = seat;
    reads[i] = belief;
  }
  let out = '';
  for (let i = 0; i < top.length; i++) {
    const belief = reads[i] as Beliefs[string];
    out += `${out ? '; ' : ''}${(top[i] as Seat).name} ${twoDecimals(belief.suspicion)} (${belief.reason})`;
  }
  return out;
}

/** Living players this Detective has found to be Mafia. */
export function foundMafia(c: Context): string[] {
  return c.view.investigations.filter((i) => i.result === 'mafia' && c.alive(i.targetId)).map((i) => i.targetId);
}

export function resultsText(c: Context): string {
  return c.view.investigations
    .map((i) => `Night ${i.night}: ${c.name(i.targetId)} is ${i.result === 'mafia' ? 'Mafia' : 'innocent'}.`)
    .join(' ');
}

/** The Mafia's view of danger: a likely Detective first, then a likely Doctor, and whoever points at the team. */
export function threat(c: Context, id: string): number {
  const team = c.team;
  let score = GUESS_THREAT[c.beliefs[id]?.roleGuess ?? 'none'] ?? (c.record.claims.has(id) ? 0.5 : 0);
  for (const accused of c.record.accusations.get(id) ?? []) if (team.has(accused)) score += 0.5;
  return score;
}

/** How much the Mafia want a likely holder of each power role dead; an unbelieved claim counts 0.5. */
const GUESS_THREAT: Partial<Record<string, number>> = { detective: 3, doctor: 2, vigilante: 1.5 };

/** The brain's own decision with other words (its decisions have no fallback or tools): fields, not a spread. */
export function withSpeech(decision: Decision, speech: string | null, reasoning: string): Decision {
  return { targetId: decision.targetId, speech, reasoning, beliefs: decision.beliefs, urgency: decision.urgency };
}
