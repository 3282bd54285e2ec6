import { createHash } from 'node:crypto';

/**
 * How the wire fakes think: thinking (Anthropic) and reasoning (OpenAI) tokens billed as output but
 * never shown, and the signatures that bind Anthropic's thinking blocks to the model that wrote them.
 *
 * Neither provider publishes how many thinking tokens an effort level spends, only that higher
 * levels spend more (platform.claude.com/docs/en/build-with-claude/effort). The fakes charge a share
 * of the answer's own tokens per level, on the generous side so a bench never prices a thinking
 * model too low: half the answer at `low`, as much again at `medium`, twice at `high`, three and
 * four times at `xhigh` and `max`, a quarter at `minimal`, nothing at `none`.
 */
const THINKING_PER_ANSWER_TOKEN: Readonly<Record<string, number>> = {
  none: 0,
  minimal: 0.25,
  low: 0.5,
  medium: 1,
  high: 2,
  xhigh: 3,
  max: 4,
};

/** A progress note a model that thinks only between tool calls writes before its calls (Sonnet 5.5 `between_tools`). */
export const BETWEEN_TOOLS_NOTE_TOKENS = 24;

/** Thinking tokens for an answer of `answerTokens` at `effort` (an unknown effort counts as `high`). */
export function thinkingTokens(answerTokens: number, effort: string): number {
  return Math.ceil(answerTokens * (THINKING_PER_ANSWER_TOKEN[effort] ?? 2));
}

/** A thinking block's signature: opaque to clients, checkable by the fake, valid only for `model`. */
export function thinkingSignature(model: string, request: number, thinking: string): string {
  return `${request}.${digest(model, request, thinking)}`;
}

/** Whether a thinking block sent back is one this fake gave `model`, unchanged. */
export function validSignature(model: string, thinking: string, signature: string): boolean {
  const [request, sum] = signature.split('.');
  return request !== undefined && /^\d+$/.test(request) && sum === digest(model, Number(request), thinking);
}

function digest(model: string, request: number, thinking: string): string {
  return createHash('sha256').update(`${model}\n${request}\n${thinking}`).digest('base64url').slice(0, 32);
}
