import { getRole, isMafia, type GameState } from '../game/index.ts';
import { beliefAccuracy, meanOverDays, type SeatRead } from './belief-accuracy.ts';
import { guessLine } from './guess-lines.ts';

/** Days as short ranges: [1, 2, 4] → "on days 1–2, 4". */
function daysText(days: readonly number[]): string {
  if (days.length === 0) return 'on no day';
  const ranges: [number, number][] = [];
  for (const d of days) {
    const last = ranges.at(-1);
    if (last && d === last[1] + 1) last[1] = d;
    else ranges.push([d, d]);
  }
  return `on day${days.length > 1 ? 's' : ''} ${ranges.map(([a, b]) => (a === b ? `${a}` : `${a}–${b}`)).join(', ')}`;
}

const two = (x: number) => x.toFixed(2);

/** One seat's read of the table, as the director's cut says it. */
function beliefLine(seat: SeatRead): string {
  const brier = meanOverDays([seat], (d) => d.brier);
  const prior = meanOverDays([seat], (d) => d.priorBrier);
  if (brier === null || prior === null) return `- **${seat.name}** left no read of the table.`;
  const perDay = seat.days.map((d) => `day ${d.day} ${two(d.brier)}`).join(', ');
  const head = `- **${seat.name}** (${getRole(seat.role).name}): read the table: ${two(brier)} Brier (${perDay}`;
  if (isMafia(seat.role))
    return `${head}; what it knew: ${two(prior)}); as Mafia it knows its team, so this is the town's eye it plays, not a guess, and there is no top suspect to score.`;
  return `${head}; a uniform guess: ${two(prior)}), top suspect right ${daysText(seat.days.filter((d) => d.topSuspectMafia === true).map((d) => d.day))}.`;
}

/**
 * The director's-cut section on how each AI seat read the table: lower Brier is better (0 knew
 * everything, 0.25 guessed a coin flip for everyone). Empty when no seat left suspicions.
 */
export function beliefSection(state: GameState): string[] {
  const reads = beliefAccuracy(state)?.filter((r) => r.days.length > 0) ?? [];
  if (reads.length === 0) return [];
  return [
    '',
    '## How the AI seats read the table',
    '',
    "Brier score of each seat's suspicions at the end of each day against the true roles (0 is a perfect read; players whose role was public, and a Mafia seat's own team, are not scored), beside a uniform guess of the Mafia share (for a Mafia seat, beside what it knew).",
    '',
    ...reads.flatMap((r) => {
      const guesses = guessLine(state, r.playerId);
      return guesses ? [beliefLine(r), guesses] : [beliefLine(r)];
    }),
  ];
}
