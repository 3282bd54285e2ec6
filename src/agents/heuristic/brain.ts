import type { Rng } from '../../game/index.ts';
import type { Brain, Decision, DecisionRequest, Voice } from '../decision.ts';
import { Context } from './context.ts';
import { mafiaChatDecision, nightDecision } from './night-choice.ts';
import { voteDecision } from './vote-choice.ts';
import { defenseDecision, keepWordInSpeech, lastWordsDecision, speakDecision, trialSpeech } from './talk.ts';

function decide(req: DecisionRequest, rng: Rng, voice: Voice | undefined): Decision {
  const c = new Context(req, rng, voice);
  switch (req.kind) {
    case 'night':
      return nightDecision(c);
    case 'vote':
      return voteDecision(c);
    case 'speak': {
      const spoken = keepWordInSpeech(c, speakDecision(c));
      // A trial day's discussion: the request lists whom the seat may nominate or second.
      return req.targets.length > 0 ? trialSpeech(c, spoken) : spoken;
    }
    case 'defense':
      return defenseDecision(c);
    case 'mafia_chat':
      return mafiaChatDecision(c);
    case 'last_words':
      return lastWordsDecision(c);
  }
}

/** The always-legal answer, used if anything in the heuristics goes wrong. */
function safeDecision(req: DecisionRequest, why: string): Decision {
  const targetId = req.kind === 'vote' ? (req.allowSkip ? 'no_lynch' : (req.targets[0]?.id ?? null)) : null;
  const speech = req.kind === 'speak' || req.kind === 'defense' || req.kind === 'last_words' ? '…' : null;
  return { targetId, speech, reasoning: `Fallback: ${why}`, beliefs: req.beliefs, urgency: 0 };
}

/** The offline brain: plays any seat legally with no LLM, and never throws. */
export function heuristicBrain(voice?: Voice): Brain {
  return (req, rng) => {
    try {
      return decide(req, rng, voice);
    } catch (error) {
      return safeDecision(req, error instanceof Error ? error.message : String(error));
    }
  };
}
