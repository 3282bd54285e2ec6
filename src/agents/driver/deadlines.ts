import type { GameState, Phase, Rules } from '../../game/index.ts';

/** The most a seat's move is brought forward from its phase's deadline. */
const MARGIN_MAX_MS = 3000;

/**
 * How long before a deadline a seat's move must be in: a few seconds, or a share of a short phase,
 * so the offline brain's stand-in move is stored before the phase resolves even on a busy bot.
 */
function marginMs(phaseMs: number): number {
  return Math.min(MARGIN_MAX_MS, Math.max(100, Math.round(phaseMs * 0.15)));
}

export function phaseLengthMs(rules: Rules, phase: Phase): number {
  switch (phase) {
    case 'night':
      return rules.nightSeconds * 1000;
    case 'dawn':
      return rules.dawnSeconds * 1000;
    case 'day':
      return rules.daySeconds * 1000;
    case 'defense':
      return rules.defenseSeconds * 1000;
    case 'vote':
      return rules.voteSeconds * 1000;
    case 'last_words':
      return rules.lastWordsSeconds * 1000;
    case 'lobby':
    case 'ended':
      return 0;
  }
}

/** When a move for the current phase must be decided by (epoch ms), or null when the phase has no deadline. */
export function dueBy(state: GameState): number | null {
  if (state.deadline === null) return null;
  return state.deadline - marginMs(phaseLengthMs(state.settings.rules, state.phase));
}

/** A moment of the game a move is for: its phase and day, and in a defense phase whose turn it is. */
export type PhaseMoment = Pick<GameState, 'day' | 'phase'> & { readonly trial?: { readonly defendant: string | null } };

/** The phase a move is for; a move decided for one phase (or one nominee's defense) is never applied in another. */
export function phaseKey(state: PhaseMoment): string {
  const defendant = state.phase === 'defense' ? (state.trial?.defendant ?? null) : null;
  // Asked many times a decision, nearly always for the same phase: the last key is kept, not built again.
  if (state.day !== lastKey.day || state.phase !== lastKey.phase || defendant !== lastKey.defendant)
    lastKey = {
      day: state.day,
      phase: state.phase,
      defendant,
      key: defendant === null ? `${state.day}:${state.phase}` : `${state.day}:${state.phase}:${defendant}`,
    };
  return lastKey.key;
}

let lastKey: { readonly day: number; readonly phase: Phase; readonly defendant: string | null; readonly key: string } = {
  day: 0,
  phase: 'lobby',
  defendant: null,
  key: '0:lobby',
};
