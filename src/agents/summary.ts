import { getRole, narrate, viewFor, type GameState } from '../game/index.ts';
import { readRecord } from './heuristic/reading.ts';

/** The public record of one day, as lines; the input of every summarizer. */
export interface DayRecord {
  readonly day: number;
  readonly lines: readonly string[];
}

/** Writes the recap of a finished day: one call shared by every seat (or none, offline); gives up at the signal. */
export type Summarizer = (
  record: DayRecord,
  timing?: { readonly signal?: AbortSignal; readonly deadline?: number },
) => Promise<string> | string;

export function dayRecord(state: GameState, day: number): DayRecord {
  let current = 0;
  const lines: string[] = [];
  for (const e of state.log) {
    if (e.type === 'phase_started') current = e.payload.day;
    if (current !== day || e.visibility.kind !== 'public' || e.type === 'phase_started' || e.type === 'day_summary') continue;
    const line = narrate(state, e);
    if (line) lines.push(line);
  }
  return { day, lines };
}

/** The offline recap: deaths, role claims, claimed results and the vote, from the record alone. */
export function offlineSummarizer(state: GameState): Summarizer {
  return ({ day }) => {
    const name = (id: string) => state.players.find((p) => p.id === id)?.name ?? id;
    const parts: string[] = [];
    let current = 0;
    const claims: string[] = [];
    for (const e of state.log) {
      if (e.type === 'phase_started') current = e.payload.day;
      if (current !== day) continue;
      if (e.type === 'player_died') {
        parts.push(
          `${name(e.payload.playerId)} ${e.payload.cause === 'lynch' ? 'was lynched' : e.payload.cause === 'mafia' ? 'was killed in the night' : e.payload.cause === 'left' ? 'left the game' : 'was shot in the night'}${e.payload.role ? ` (${getRole(e.payload.role).name})` : ''}.`,
        );
      } else if (e.type === 'night_resolved' && e.payload.deaths.length === 0) parts.push('Nobody died in the night.');
      else if (e.type === 'vote_resolved' && !e.payload.lynchedId) parts.push(`No lynch (${e.payload.reason.replace('_', ' ')}).`);
    }
    // The record reads public events only, so any seat's view serves.
    const view = state.players[0] ? viewFor(state, state.players[0].id) : null;
    for (const s of view ? readRecord(view).speeches : []) {
      if (s.day !== day) continue;
      if (s.roleClaim) claims.push(`${name(s.speakerId)} claimed ${getRole(s.roleClaim).name}`);
      for (const [target, result] of s.results) claims.push(`${name(s.speakerId)} called ${name(target)} ${result}`);
    }
    const unique = [...new Set(claims)];
    return [...parts, ...(unique.length > 0 ? [`${unique.join('; ')}.`] : [])].join(' ') || `Day ${day} passed quietly.`;
  };
}
