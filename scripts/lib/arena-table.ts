import { skill } from '../../src/report/ratings.ts';
import { dollarsPerGame, type ArenaResult, type ArenaRow } from './arena.ts';
import { townWinRate } from './arena-figures.ts';

const percent = (part: number, whole: number) => (whole === 0 ? '—' : `${Math.round((part / whole) * 100)} %`);
const record = (side: { played: number; won: number }) =>
  side.played === 0 ? '—' : `${side.won}/${side.played} ${percent(side.won, side.played)}`;

/** The columns of both tables, the first named by what the rows are. */
function cells(row: ArenaRow): string[] {
  const { brier } = row;
  const dollars = dollarsPerGame(row);
  return [
    row.key,
    `${row.games}`,
    record(row.town),
    record(row.mafia),
    `${skill(row.rating).toFixed(1)} (${row.rating.mu.toFixed(1)} ± ${row.rating.sigma.toFixed(1)})`,
    brier.days === 0 ? '—' : `${(brier.sum / brier.days).toFixed(3)} (${(brier.uniform / brier.days).toFixed(3)})`,
    row.decisions === 0 ? '—' : `${((row.fallbacks / row.decisions) * 100).toFixed(1)} %`,
    row.games === 0 ? '—' : `${Math.round(row.tokens / row.games)}`,
    dollars === null ? 'n/a' : `$${dollars.toFixed(3)}`,
  ];
}

/** A text table: the first column left-aligned, the rest right-aligned, two spaces apart. */
function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: readonly string[]) =>
    r
      .map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

const COLUMNS = ['games', 'Town won', 'Mafia won', 'skill (μ ± σ)', 'Town Brier (uniform)', 'fallback', 'tokens/game', '$/game'];

/** The arena's report: what was played, then the table by persona and the table by model, best rated first. */
export function arenaReport(result: ArenaResult): string {
  const seeds = result.seeds.length === 1 ? `seed ${result.seeds[0]}` : `seeds ${result.seeds[0]}–${result.seeds.at(-1)}`;
  const outcomes = Object.entries(result.outcomes)
    .map(([o, n]) => `${o} ${n}`)
    .join(', ');
  return [
    `Arena: ${result.games} all-AI games of ${result.seats} seats, ${seeds} (each run of ${result.seats} games replays one deal, every entry one seat further on); ${outcomes}.`,
    `Town won ${(townWinRate(result) * 100).toFixed(1)} % of the games.`,
    '',
    ...table(['persona', ...COLUMNS], result.byPersona.map(cells)),
    '',
    ...table(['model', ...COLUMNS], result.byModel.map(cells)),
    '',
    'games: seat-games (an entry seated twice plays two a game). Town/Mafia won: games won of those played on that side.',
    "skill: openskill (Weng-Lin) rating over each game's sides, each weighed by its mean, winners first; what the winners gain the losers lose, so the seats' mean μ stays 25. Ranked by μ − 3σ.",
    'Town Brier: mean over its Town seat-days of its suspicions against the true roles (lower is better); in brackets, a uniform guess. Mafia seats know the roles, so their reads are an act and not scored.',
    "fallback: its decisions the offline brain made in the model's place. tokens and $ per seat-game, $ at list prices (scripts/lib/prices.ts; n/a: no price for that model).",
  ].join('\n');
}
