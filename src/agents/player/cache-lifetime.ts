import type { Rules } from '../../game/index.ts';
import type { CacheLifetimes } from '../../llm/types.ts';

/**
 * Past this gap the hour pays for its dearer writes. Anthropic's short lifetime is 5 minutes, but a
 * gap just over it costs only its early speakers' blocks: measured on Sonnet 5.5 (docs/benchmarks.md, What a game costs),
 * a 5.5-minute day is cheaper at 5 minutes ($0.182 against $0.189 a game), a 6-minute day at an
 * hour ($0.192 against $0.220).
 */
const HOUR_PAYS_PAST_MS = 5.5 * 60_000;

/**
 * The longest a seat may go between its own calls at these phase lengths: across a day (its first
 * speech at the start, its vote at the end), across a night and dawn (its night move, then its
 * first speech), or across the vote and last words (its vote, then its night move).
 */
function longestGapMs(rules: Pick<Rules, 'daySeconds' | 'nightSeconds' | 'dawnSeconds' | 'voteSeconds' | 'lastWordsSeconds'>): number {
  return Math.max(rules.daySeconds, rules.nightSeconds + rules.dawnSeconds, rules.voteSeconds + rules.lastWordsSeconds) * 1000;
}

/**
 * How long a seat's cached prompt parts should live (Anthropic; docs/benchmarks.md, What a game costs). When a seat's calls
 * can be more than 5½ minutes apart, its own block and the table's shared block get 1 hour: a write
 * costs 2× input instead of 1.25×, but the seat and, once the table has been quiet that long,
 * every seat at once would otherwise write them again. The turn stays at 5 minutes: most of it is
 * written once and read within minutes. At the default phase lengths no gap passes 5 minutes, and
 * the dearer write would buy nothing; nor does it just past 5, where only the early speakers lose.
 */
export function cacheLifetimesFor(rules: Parameters<typeof longestGapMs>[0]): CacheLifetimes {
  return longestGapMs(rules) > HOUR_PAYS_PAST_MS ? { shared: '1h', stable: '1h' } : {};
}
