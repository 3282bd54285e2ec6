import { legalTargets } from '../../src/agents/ai-seats.ts';
import type { DecisionKind, DecisionRequest } from '../../src/agents/decision.ts';
import * as engine from '../../src/game/index.ts';
import type { TestGame } from './test-game.ts';

/**
 * A seat's decision request as the AI players build it: its view and exactly its legal targets
 * (the night action, the vote, or in a trial day's discussion whom it may nominate or second).
 */
export function decisionRequest(
  t: TestGame,
  playerId: string,
  kind: DecisionKind,
  beliefs: DecisionRequest['beliefs'] = {},
): DecisionRequest {
  const targets = legalTargets(t.state, playerId, kind);
  return {
    kind,
    view: engine.viewFor(t.state, playerId)!,
    targets: targets.map((p) => ({ id: p.id, name: p.name })),
    allowSkip: kind === 'vote' ? t.state.settings.rules.allowNoLynch : true,
    beliefs,
  };
}
