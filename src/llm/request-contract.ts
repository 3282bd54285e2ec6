import { modelInfo, type EffortLevel, type ModelRequestTraits } from '../models.ts';
import type { ProviderName } from './types.ts';

/** A model's request traits with every default filled in (see `ModelRequestTraits`). */
export type RequestContract = Required<Omit<ModelRequestTraits, 'defaultEffort' | 'thinkingOff'>> &
  Pick<ModelRequestTraits, 'defaultEffort' | 'thinkingOff'>;

/** What a model neither the table nor a known family describes gets: the request of old. */
export const LEGACY_CONTRACT: RequestContract = {
  efforts: [],
  outputFormat: false,
  noForcedTool: false,
  noSampling: false,
  toolsOnlyWithoutReasoning: false,
};

const CLAUDE_EFFORTS: readonly EffortLevel[] = ['low', 'medium', 'high', 'xhigh', 'max'];
/** Claude 5.x: thinking on by default, sampling refused, structured outputs native, forced tools refused while it thinks. */
const CLAUDE_5 = { efforts: CLAUDE_EFFORTS, outputFormat: true, noForcedTool: true, noSampling: true } as const;
const GPT_EFFORTS: readonly EffortLevel[] = ['none', 'low', 'medium', 'high', 'xhigh', 'max'];
/** GPT-5.6 and GPT-6: reasoning at `medium` unless told, function tools on Chat Completions only at `none`. */
const GPT_REASONING = { efforts: GPT_EFFORTS, defaultEffort: 'medium', noSampling: true, toolsOnlyWithoutReasoning: true } as const;

/**
 * Families by model id, for rows the table lacks or leaves partly empty, most specific first. Sources:
 * - Claude Sonnet 5.5: platform.claude.com/docs/en/models/sonnet-5-5/migration-guide and
 *   …/whats-new-sonnet-5-5 (thinking, budgets, sampling, prefill and forced tool choice refused;
 *   `between_tools` turns up-front thinking off at low–high effort; default effort high).
 * - Claude Haiku 5.5: …/models/haiku-5-5/whats-new-haiku-5-5 and
 *   …/build-with-claude/prompt-engineering/prompting-claude-haiku-5-5 (adaptive thinking by default
 *   at medium, `disabled` allowed at low–high, sampling and prefill refused).
 * - Claude Opus 5.5 and the other 5.x: …/build-with-claude/effort (default medium on Opus 5.5, high on
 *   the rest) and github.com/can1357/oh-my-pi/issues/12939 (forced tool_choice refused with thinking off).
 * - GPT-6 and GPT-5.6: docs.oxen.ai/inference-api/reference/models/gpt-6-luna ("Chat Completions supports
 *   function calling only with reasoning effort set to none"), docs.litellm.ai/blog/gpt_6_sol_luna
 *   (none–max, default medium, temperature only at none), github.com/BerriAI/litellm/pull/34569
 *   (tools refused even when no effort is sent). GPT-6 Astra and GPT-6.1 Sol take no `none`
 *   (docs.laozhang.ai/en/announcements/gpt-6-chat-tools-2026-11, github.com/bolna-ai/bolna/pull/1019):
 *   on Chat Completions they take no function tools at all.
 * - GPT-5 and GPT-5 mini: minimal–high, default medium, tools with any effort, temperature only 1.
 */
const FAMILIES: readonly { readonly provider: ProviderName; readonly id: RegExp; readonly traits: ModelRequestTraits }[] = [
  {
    provider: 'anthropic',
    id: /^claude-sonnet-5-5(-|$)/,
    traits: { ...CLAUDE_5, defaultEffort: 'high', thinkingOff: 'between_tools' },
  },
  { provider: 'anthropic', id: /^claude-haiku-5-5(-|$)/, traits: { ...CLAUDE_5, defaultEffort: 'medium', thinkingOff: 'disabled' } },
  { provider: 'anthropic', id: /^claude-opus-5-5(-|$)/, traits: { ...CLAUDE_5, defaultEffort: 'medium' } },
  { provider: 'anthropic', id: /^claude-[a-z]+-5(-|$)/, traits: { ...CLAUDE_5, defaultEffort: 'high' } },
  {
    provider: 'openai',
    id: /^gpt-(6-astra|6\.1-sol)(-|$)/,
    traits: { ...GPT_REASONING, efforts: ['low', 'medium', 'high', 'xhigh'] },
  },
  { provider: 'openai', id: /^gpt-(6|5\.6)([.-]|$)/, traits: GPT_REASONING },
  {
    provider: 'openai',
    id: /^gpt-5(-mini|-nano)?(-\d{4}-\d{2}-\d{2})?$/,
    traits: { efforts: ['minimal', 'low', 'medium', 'high'], defaultEffort: 'medium', noSampling: true },
  },
];

/**
 * How a request to `model` must be shaped: the table's row first, then the model's family, then the
 * request of old. Neither provider's builder sends a field its model would refuse.
 */
export function requestContract(provider: ProviderName, model: string): RequestContract {
  const family = FAMILIES.find((f) => f.provider === provider && f.id.test(model))?.traits ?? {};
  const row = modelInfo(provider, model)?.request ?? {};
  return { ...LEGACY_CONTRACT, ...family, ...row };
}

/** Whether the model reasons before it answers unless told not to. */
export function thinksByDefault(contract: RequestContract): boolean {
  return contract.defaultEffort !== undefined && contract.defaultEffort !== 'none';
}

/**
 * Output tokens a call should leave for thinking on top of the answer's own (both providers count
 * thinking in the limit), by the effort it reasons at: a ceiling only, nothing is billed unless used.
 */
export function thinkingRoom(effort: EffortLevel | undefined): number {
  switch (effort) {
    case undefined:
    case 'none':
      return 0;
    case 'minimal':
      return 512;
    case 'low':
      return 1024;
    case 'medium':
      return 2048;
    default:
      return 4096;
  }
}
