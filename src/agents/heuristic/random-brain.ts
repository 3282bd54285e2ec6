import type { Brain } from '../decision.ts';
import { heuristicBrain } from './brain.ts';

/**
 * A baseline that acts at random (votes and night targets) but talks like the
 * heuristic brain; the benchmark measures how much the heuristics add.
 */
export function randomBrain(): Brain {
  const talker = heuristicBrain();
  return (req, rng) => {
    if (req.kind !== 'night' && req.kind !== 'vote') return talker(req, rng);
    const options: (string | null)[] = req.targets.map((t) => t.id);
    if (req.allowSkip) options.push(req.kind === 'vote' ? 'no_lynch' : null);
    const targetId = options.length > 0 ? rng.pick(options) : null;
    return { targetId, speech: null, reasoning: 'Random move.', beliefs: req.beliefs, urgency: 0 };
  };
}
