import type { RoleId } from '../../game/index.ts';
import { err, ok, type Result } from '../../result.ts';
import type { Beliefs } from '../beliefs.ts';
import type { Decision, DecisionRequest } from '../decision.ts';
import { contradiction } from './contradiction.ts';
import { decisionSchema, optionsOf } from './output-schema.ts';
import { limitsOf } from './turn-lengths.ts';
import { withPriors } from './prior-beliefs.ts';

/** Cuts at a sentence end when one is near the limit, else at the limit with an ellipsis. */
function cut(text: string, limit: number): string {
  const trimmed = text.trim();
  if (trimmed.length <= limit) return trimmed;
  const slice = trimmed.slice(0, limit);
  const end = Math.max(slice.lastIndexOf('. '), slice.lastIndexOf('! '), slice.lastIndexOf('? '));
  return end > limit / 2 ? slice.slice(0, end + 1) : `${slice.slice(0, limit - 1)}…`;
}

/** A guess at a role the game does not hold is no guess: a belief, not a move, so it is dropped rather than asked again. */
function roleGuessIn(request: DecisionRequest, guess: RoleId | null): RoleId | null {
  return guess !== null && request.view.rolesInPlay.includes(guess) ? guess : null;
}

/**
 * Turns the model's structured answer into a Decision, or says exactly what is wrong with it (the
 * words the re-ask will carry): the schema, whether the decision is legal now (the schema lists
 * every seated name, so legality is checked here), and speech that announces a different target
 * than the decision. Fields over this turn's lengths are cut, not refused.
 */
export function interpret(request: DecisionRequest, structured: unknown): Result<Decision, string> {
  if (structured === undefined || structured === null) {
    return err('No structured answer came back; answer with the required JSON fields.');
  }
  const parsed = decisionSchema(request.view).safeParse(structured);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return err(`Field "${issue?.path.join('.') || 'answer'}": ${issue?.message ?? 'invalid'}.`);
  }
  const answer = parsed.data;
  const limits = limitsOf(request);
  const options = optionsOf(request);
  const chosen = options.find((o) => o.label === answer.decision);
  if (options.length > 0 && !chosen) {
    return err(`"${answer.decision}" is not one of your options now: ${options.map((o) => o.label).join(', ')}.`);
  }
  const speech = cut(answer.speech, limits.speech);
  if (request.kind === 'vote' || request.kind === 'mafia_chat') {
    const others = request.view.seats.filter((s) => s.id !== request.view.me.id).map((s) => s.name);
    const said = contradiction(speech, request.kind === 'vote' ? 'vote' : 'kill', chosen?.id ? answer.decision : null, others);
    if (said) {
      return err(
        `Your speech names ${said} as your ${request.kind === 'vote' ? 'vote' : 'kill'} but your decision is ${answer.decision}. Say what you do and do what you say.`,
      );
    }
  }
  const byName = new Map(request.view.seats.map((s) => [s.name, s.id]));
  // The answer holds only the reads that changed: they go over the seat's complete map.
  const beliefs: Beliefs = withPriors(request.view, request.beliefs);
  for (const b of answer.beliefs) {
    const id = byName.get(b.player);
    if (id && id !== request.view.me.id) {
      const roleGuess = roleGuessIn(request, b.roleGuess);
      beliefs[id] = { suspicion: b.suspicion, trust: b.trust, reason: cut(b.reason, limits.reason), ...(roleGuess && { roleGuess }) };
    }
  }
  const targetId = chosen ? (chosen.id ?? (request.kind === 'vote' ? 'no_lynch' : null)) : null;
  return ok({
    targetId,
    speech: request.kind === 'night' ? null : speech || null,
    reasoning: [
      `Observations: ${cut(answer.observations, limits.observations)}`,
      `Analysis: ${cut(answer.analysis, limits.analysis)}`,
      `Strategy: ${cut(answer.strategy, limits.strategy)}`,
    ].join('\n'),
    beliefs,
    urgency: answer.urgency,
  });
}
