import { narrate, viewFor, type GameState } from '../game/index.ts';
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

/**
 * The offline recap: a reading of the day, not its facts (the engine tells every seat those): who
 * pointed a finger at whom, from the record alone.
 */
export function offlineRecap(state: GameState, day: number): string {
  const name = (id: string) => state.players.find((p) => p.id === id)?.name ?? id;
  // The record reads public events only, so any seat's view serves.
  const view = state.players[0] ? viewFor(state, state.players[0].id) : null;
  const pointed = new Map<string, Set<string>>();
  for (const s of view ? readRecord(view).speeches : []) {
    if (s.day !== day || s.accused.length === 0) continue;
    const targets = pointed.get(s.speakerId) ?? new Set<string>();
    for (const id of s.accused) targets.add(name(id));
    pointed.set(s.speakerId, targets);
  }
  if (pointed.size === 0) return `Day ${day}: nobody pointed a finger at anyone.`;
  const fingers = [...pointed].map(([speaker, targets]) => `${name(speaker)} at ${[...targets].join(' and ')}`);
  return `Day ${day}, who pointed at whom: ${fingers.join('; ')}.`;
}
