import type { Decision, DecisionKind } from '../decision.ts';

/** The director's cut label of a decision: what it chose (the outcome and any fallback are kept beside it). */
export function describeDecision(kind: DecisionKind, decision: Decision, name: (id: string) => string): string {
  const target = decision.targetId === 'no_lynch' ? 'no lynch' : decision.targetId ? name(decision.targetId) : 'nobody';
  switch (kind) {
    case 'night':
    case 'mafia_chat':
      return `night action → ${target}`;
    case 'vote':
      return `vote → ${target}`;
    case 'speak':
      return decision.targetId ? `speech, nominates → ${target}` : 'speech';
    case 'defense':
      return 'defense';
    case 'last_words':
      return 'last words';
  }
}
