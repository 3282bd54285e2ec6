import type { Outcome } from './events.ts';
import type { Phase } from './state.ts';
import type { Transition } from './transition.ts';
import { winner } from './win.ts';
import type { RoleId } from './roles/ids.ts';

function phaseSeconds(t: Transition, phase: Phase): number | null {
  const rules = t.state.settings.rules;
  switch (phase) {
    case 'night':
      return rules.nightSeconds;
    case 'dawn':
      return rules.dawnSeconds;
    case 'day':
      return rules.daySeconds;
    case 'defense':
      return rules.defenseSeconds;
    case 'vote':
      return rules.voteSeconds;
    case 'last_words':
      return rules.lastWordsSeconds;
    case 'lobby':
    case 'ended':
      return null;
  }
}

export function enterPhase(t: Transition, phase: Phase, day: number, defendantId?: string): void {
  const seconds = phaseSeconds(t, phase);
  const deadline = seconds === null ? null : t.at + seconds * 1000;
  t.emit({
    type: 'phase_started',
    payload: defendantId === undefined ? { phase, day, deadline } : { phase, day, deadline, defendantId },
  });
}

export function endGame(t: Transition, outcome: Outcome): void {
  const roles: Record<string, RoleId> = {};
  for (const p of t.state.players) if (p.role) roles[p.id] = p.role;
  t.emit({ type: 'game_ended', payload: { outcome, roles, jesterWinners: [...t.state.jesterWinners] } });
}

/** Ends the game if a faction has won; tells the caller whether it did. */
export function endIfWon(t: Transition): boolean {
  const outcome = winner(t.state);
  if (!outcome) return false;
  endGame(t, outcome);
  return true;
}
