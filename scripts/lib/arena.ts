/**
 * The arena: all-AI games of some entries (personas on models), each entry moved round the table
 * from game to game, tallied per persona and per model. Played through the bot's own session and AI
 * driver (`playHeadless`), with the seats built by `Seating` as the demo builds them.
 */
import { budgetLimits, TokenBudget, memoryLedger } from '../../src/agents/budget.ts';
import { budgetSink, Seating } from '../../src/agents/seating.ts';
import type { AiSeat } from '../../src/agents/ai-seats.ts';
import type { LlmConfig } from '../../src/config.ts';
import { getRole, type GameState } from '../../src/game/index.ts';
import type { CallRecord } from '../../src/llm/metered.ts';
import type { LlmProvider, ProviderName } from '../../src/llm/types.ts';
import { beliefAccuracy, bySide } from '../../src/report/belief-accuracy.ts';
import { NEW_RATING, placings, rateGame, skill, type Rating } from '../../src/report/ratings.ts';
import { playHeadless } from '../../src/session/headless-game.ts';
import type { ArenaEntry } from './arena-seats.ts';
import { dollarsOf, priceOf } from './prices.ts';

/** What one persona or model did over the arena's games. */
export interface ArenaRow {
  readonly key: string;
  /** Seat-games: a model seated twice in a game plays two. */
  games: number;
  town: { played: number; won: number };
  mafia: { played: number; won: number };
  rating: Rating;
  /** Sums over its Town seats' days (src/report/belief-accuracy.ts), and how many days: a Mafia seat's reads are no guess. */
  brier: { sum: number; uniform: number; days: number };
  decisions: number;
  fallbacks: number;
  tokens: number;
  calls: CallRecord[];
}

export interface ArenaResult {
  readonly games: number;
  readonly seats: number;
  readonly seeds: readonly number[];
  readonly byPersona: readonly ArenaRow[];
  readonly byModel: readonly ArenaRow[];
  readonly outcomes: Readonly<Record<string, number>>;
}

export interface ArenaOptions {
  readonly entries: readonly ArenaEntry[];
  readonly games: number;
  /** Game g is dealt with seed `seed + ⌊g / seats⌋`: each run of `seats` games replays one deal with the entries rotated. */
  readonly seed: number;
  readonly env: LlmConfig;
  /** The provider clients (default: from `env`); made once, shared by every game. */
  readonly providers: (name: ProviderName) => LlmProvider | null;
  /** Told after each game (progress). */
  readonly onGame?: (game: number, state: GameState) => void;
}

function newRow(key: string): ArenaRow {
  return {
    key,
    games: 0,
    town: { played: 0, won: 0 },
    mafia: { played: 0, won: 0 },
    rating: NEW_RATING,
    brier: { sum: 0, uniform: 0, days: 0 },
    decisions: 0,
    fallbacks: 0,
    tokens: 0,
    calls: [],
  };
}

/** The entry at each seat in game g: entry (i + g) mod n sits at seat i. */
function rotation(entries: readonly ArenaEntry[], game: number): ArenaEntry[] {
  return entries.map((_, i) => entries[(i + game) % entries.length] as ArenaEntry);
}

const best = (rows: Iterable<ArenaRow>) => [...rows].sort((a, b) => skill(b.rating) - skill(a.rating) || a.key.localeCompare(b.key));

/** Plays the arena's games one after another and tallies them. */
export async function runArena(options: ArenaOptions): Promise<ArenaResult> {
  const { entries } = options;
  const byPersona = new Map(entries.map((e) => [e.persona, newRow(e.persona)]));
  const byModel = new Map(entries.map((e) => [e.model, newRow(e.model)]));
  const outcomes: Record<string, number> = {};
  const seeds = new Set<number>();
  const ledger = memoryLedger();
  const budget = new TokenBudget(ledger, budgetLimits(options.env));
  const costs = budgetSink(budget);
  for (let g = 0; g < options.games; g++) {
    const seated = rotation(entries, g);
    const seed = options.seed + Math.floor(g / entries.length);
    seeds.add(seed);
    const gameId = `arena-${seed}-${g % entries.length}`;
    const calls = new Map<string, CallRecord[]>();
    const seating = new Seating(
      { ...options.env, provider: 'offline' },
      { guildId: 'arena', gameId },
      {
        budget,
        providers: options.providers,
        cost: (site, record) => {
          costs.sink(site, record);
          if (site.playerId) calls.set(site.playerId, [...(calls.get(site.playerId) ?? []), record]);
        },
      },
    );
    const seats: AiSeat[] = seated.map((e, i) =>
      seating.seat({ id: `seat${i + 1}`, name: e.name }, { ...e.seat.prompt, preference: e.plays }),
    );
    const result = await playHeadless({ gameId, seed, seats, startAt: Date.UTC(2026, 0, 1) });
    if (!result.ok) throw new Error(`arena game ${g + 1}: ${result.error}`);
    const state = result.value;
    tally(state, seated, calls, byPersona, (e) => e.persona);
    tally(state, seated, calls, byModel, (e) => e.model);
    const outcome = state.outcome;
    const label = outcome?.kind === 'win' ? `${outcome.faction} win` : (outcome?.kind ?? 'unfinished');
    outcomes[label] = (outcomes[label] ?? 0) + 1;
    options.onGame?.(g + 1, state);
  }
  await costs.flush();
  return {
    games: options.games,
    seats: entries.length,
    seeds: [...seeds],
    byPersona: best(byPersona.values()),
    byModel: best(byModel.values()),
    outcomes,
  };
}

/** Adds one game to the rows `rowOf` picks, and rates it for them. */
function tally(
  state: GameState,
  seated: readonly ArenaEntry[],
  calls: ReadonlyMap<string, readonly CallRecord[]>,
  rows: Map<string, ArenaRow>,
  rowOf: (e: ArenaEntry) => string,
): void {
  const seatOf = (playerId: string) => seated[Number(playerId.replace('seat', '')) - 1];
  const keyOf = (playerId: string) => {
    const entry = seatOf(playerId);
    return entry ? rowOf(entry) : null;
  };
  const placed = placings(state) ?? [];
  const rated = rateGame(
    (key) => rows.get(key)?.rating,
    placed.map((p) => ({ ...p, subject: keyOf(p.playerId) })),
  );
  for (const [key, rating] of rated) {
    const row = rows.get(key);
    if (row) row.rating = rating;
  }
  for (const p of placed) {
    const key = keyOf(p.playerId);
    const row = key === null ? undefined : rows.get(key);
    const role = state.players.find((s) => s.id === p.playerId)?.role;
    if (!row || !role) continue;
    row.games++;
    const faction = getRole(role).faction;
    if (faction !== 'neutral') {
      row[faction].played++;
      if (p.place === 1) row[faction].won++;
    }
    const own = calls.get(p.playerId) ?? [];
    row.calls.push(...own);
    row.tokens += own.reduce((n, c) => n + c.usage.inputTokens + c.usage.outputTokens, 0);
  }
  for (const read of bySide(beliefAccuracy(state) ?? []).town) {
    const row = rows.get(keyOf(read.playerId) ?? '');
    if (!row) continue;
    for (const d of read.days) {
      row.brier.sum += d.brier;
      row.brier.uniform += d.priorBrier;
      row.brier.days++;
    }
  }
  for (const e of state.log) {
    if (e.type !== 'reasoning') continue;
    const row = rows.get(keyOf(e.payload.playerId) ?? '');
    if (!row) continue;
    row.decisions++;
    if (e.payload.fallback) row.fallbacks++;
  }
}

/** Dollars per seat-game, each call at its model's list price; null when some model's price is unknown. */
export function dollarsPerGame(row: ArenaRow): number | null {
  if (row.games === 0) return null;
  let dollars = 0;
  for (const call of row.calls) {
    const price = priceOf(call.provider, call.model);
    if (!price) return null;
    dollars += dollarsOf([call], price);
  }
  return dollars / row.games;
}
