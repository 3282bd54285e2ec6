import * as engine from '../../src/game/index.ts';
import type { GameState } from '../../src/game/index.ts';

export interface MovesReport {
  /** AI seats' night actions and votes the game asked for (one per living seat and phase). */
  readonly due: number;
  /** Those not in the log before their phase resolved. */
  readonly missed: readonly string[];
  /** How long any night or vote ran past its deadline (ms; 0 when none did). */
  readonly overrunMsMax: number;
  /** Decisions asked of a seat's brain, and how many the offline brain made in its place. */
  readonly decisions: number;
  readonly fallbacks: number;
}

/** Reads a finished game's log: did every AI seat move in every night and vote, in time? */
export function movesReport(state: GameState): MovesReport {
  const ai = new Set(state.players.filter((p) => p.kind === 'ai').map((p) => p.id));
  const log = state.log;
  const missed: string[] = [];
  let due = 0;
  let overrunMsMax = 0;
  const starts = log.flatMap((e, i) =>
    e.type === 'phase_started' && (e.payload.phase === 'night' || e.payload.phase === 'vote' || e.payload.phase === 'defense')
      ? [{ start: i, opened: e }]
      : [],
  );
  for (const { start, opened } of starts) {
    const endIndex = log.findIndex((e, i) => i > start && (e.type === 'phase_started' || e.type === 'game_ended'));
    const end = endIndex < 0 ? log.length : endIndex;
    const before = engine.fold(log.slice(0, start + 1));
    const moved = new Set<string>();
    for (const e of log.slice(start + 1, end)) {
      if (e.type === 'night_action') moved.add(e.payload.actorId);
      else if (e.type === 'mafia_proposal') moved.add(e.payload.actorId);
      else if (e.type === 'vote_cast') moved.add(e.payload.voterId);
      else if (e.type === 'defense_rested') moved.add(e.payload.playerId);
    }
    const { phase, day, deadline } = opened.payload;
    for (const p of before.players) {
      if (!ai.has(p.id) || !p.alive) continue;
      if (phase === 'night' && !engine.hasNightAction(before, p)) continue;
      // A defense is owed by its defendant only.
      if (phase === 'defense' && opened.payload.defendantId !== p.id) continue;
      due++;
      if (!moved.has(p.id)) missed.push(`${p.name} (${phase} ${day})`);
    }
    const closer = log[end];
    if (closer && deadline !== null) overrunMsMax = Math.max(overrunMsMax, closer.at - deadline);
  }
  const reasoning = log.flatMap((e) => (e.type === 'reasoning' && !e.payload.text.startsWith('Backs ') ? [e.payload] : []));
  return { due, missed, overrunMsMax, decisions: reasoning.length, fallbacks: reasoning.filter((r) => r.fallback !== undefined).length };
}
