import { perGame, type GameEvent, type PlayerView } from '../game/index.ts';
import type { VotingBloc } from './beliefs.ts';

/** One finished vote: who voted for whom ("no_lynch" is a choice too). */
interface Round {
  readonly ballots: readonly (readonly [voter: string, target: string])[];
}

/** Blocs a seat keeps: the strongest few (a 16-seat table can have dozens of pairs). */
const BLOCS_KEPT = 6;

// The offline brain's record shares its rounds between seats until the next vote: worked out once per list.
const cache = new WeakMap<readonly Round[], readonly VotingBloc[]>();

/**
 * The pairs that voted for the same target on most of the days both voted, and on at least two:
 * one shared vote is a coincidence every lynch makes. Strongest first, then by seat order of the
 * ballots.
 */
export function votingBlocs(rounds: readonly Round[]): readonly VotingBloc[] {
  if (rounds.length < 2) return NONE;
  const cached = cache.get(rounds);
  if (cached) return cached;
  const pairs = new Map<string, { players: [string, string]; together: number; of: number }>();
  for (const { ballots } of rounds) {
    for (let i = 0; i < ballots.length; i++) {
      for (let j = i + 1; j < ballots.length; j++) {
        const [a, ta] = ballots[i] as readonly [string, string];
        const [b, tb] = ballots[j] as readonly [string, string];
        const players: [string, string] = a < b ? [a, b] : [b, a];
        const key = `${players[0]}\u0000${players[1]}`;
        let pair = pairs.get(key);
        if (!pair) pairs.set(key, (pair = { players, together: 0, of: 0 }));
        pair.of++;
        if (ta === tb) pair.together++;
      }
    }
  }
  const blocs = [...pairs.values()]
    .filter((p) => p.together >= 2 && p.together * 2 > p.of)
    .sort((x, y) => y.together - x.together || x.of - y.of)
    .slice(0, BLOCS_KEPT);
  cache.set(rounds, blocs);
  return blocs;
}

const NONE: readonly VotingBloc[] = [];

// Every seat and decision after a vote sees the same tallies: worked out once per latest tally.
const byLastTally = new WeakMap<GameEvent, readonly VotingBloc[]>();

// How far a game's log is known: every decision records the blocs, and a scan back from the end
// for the last vote result would read most of the log each time before the first vote.
const READ_TO = Symbol('vote results read');
interface ReadTo {
  /** The latest event read (null: none yet), and the last vote result at or before it. */
  mark: GameEvent | null;
  tally: GameEvent | null;
}
const unread = (): ReadTo => ({ mark: null, tally: null });

/**
 * The last vote result in `events` (a game's log or a view of it, in order of seq): read back only
 * to the latest event read before. A list that holds that very event holds everything before it as
 * it was read (a log only grows from what it held), so the vote result then known is its answer.
 */
function lastTally(events: readonly GameEvent[]): GameEvent | null {
  const first = events[0];
  const end = events.length - 1;
  if (first === undefined) return null;
  const memo = perGame(first, READ_TO, unread);
  const { mark } = memo;
  let i = end;
  let found: GameEvent | null = null;
  for (; i >= 0 && found === null; i--) {
    const e = events[i] as GameEvent;
    if (e.type === 'vote_resolved') found = e;
    else if (mark !== null && e.seq <= mark.seq) break;
  }
  if (found === null) {
    if (mark !== null && i >= 0 && holds(events, mark, i)) found = memo.tally;
    else for (; i >= 0 && found === null; i--) if (events[i]?.type === 'vote_resolved') found = events[i] as GameEvent;
  }
  const last = events[end] as GameEvent;
  if (mark === null || last.seq > mark.seq) [memo.mark, memo.tally] = [last, found];
  return found;
}

/** Whether `events[0..end]` (ordered by seq) holds `event` itself: found by its seq. */
function holds(events: readonly GameEvent[], event: GameEvent, end: number): boolean {
  let lo = 0;
  let hi = end;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const seq = (events[mid] as GameEvent).seq;
    if (seq === event.seq) return events[mid] === event;
    if (seq < event.seq) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** The blocs in the public vote results a seat has seen. */
export function votingBlocsOf(view: Pick<PlayerView, 'events'>): readonly VotingBloc[] {
  const { events } = view;
  const last = lastTally(events);
  if (last === null) return NONE;
  const kept = byLastTally.get(last);
  if (kept) return kept;
  const rounds: Round[] = [];
  for (const e of events) {
    if (e.type !== 'vote_resolved') continue;
    const ballots: [string, string][] = [];
    for (const group of e.payload.tally) for (const voter of group.voters) ballots.push([voter, group.targetId]);
    rounds.push({ ballots });
  }
  const blocs = votingBlocs(rounds);
  byLastTally.set(last, blocs);
  return blocs;
}
