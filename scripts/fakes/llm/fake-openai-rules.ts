import { isRecord } from './fake-wire.ts';

/**
 * What Chat Completions refuses per model, as OpenAI documents it (and integrators have measured),
 * so a test fails when the code sends a model what it would refuse. Kept apart from the code's own
 * `request-contract.ts`: the server's word, not the client's. Models it does not name (test ids, a
 * self-hosted server's) are refused nothing new.
 *
 * - GPT-5.6 and GPT-6 reason at `medium` unless told, take `none`–`max`, and refuse function tools
 *   unless `reasoning_effort` is `none`, also when none is sent (docs.oxen.ai/inference-api/reference/
 *   models/gpt-6-luna, github.com/BerriAI/litellm/pull/34569); `temperature` only at `none`
 *   (docs.litellm.ai/blog/gpt_6_sol_luna). GPT-6 Astra and GPT-6.1 Sol take no `none`
 *   (github.com/BerriAI/litellm-docs/pull/1173, docs.laozhang.ai/en/announcements/gpt-6-chat-tools-2026-11).
 * - GPT-5 and GPT-5 mini take `minimal`–`high` and tools at any effort; `temperature` only 1.
 * - GPT-4.1 and GPT-4o take no `reasoning_effort`.
 */
interface ServerModel {
  /** `reasoning_effort` values it takes; empty when it takes none. */
  readonly efforts: readonly string[];
  readonly defaultEffort: string;
  readonly toolsOnlyAtNone: boolean;
}

const GPT_6 = ['none', 'low', 'medium', 'high', 'xhigh', 'max'];

export function openAiModel(model: string): ServerModel | undefined {
  if (/^gpt-(6-astra|6\.1-sol)(-|$)/.test(model))
    return { efforts: ['low', 'medium', 'high', 'xhigh'], defaultEffort: 'medium', toolsOnlyAtNone: true };
  if (/^gpt-(6|5\.6)([.-]|$)/.test(model)) return { efforts: GPT_6, defaultEffort: 'medium', toolsOnlyAtNone: true };
  if (/^gpt-5(-mini|-nano)?(-\d{4}-\d{2}-\d{2})?$/.test(model)) {
    return { efforts: ['minimal', 'low', 'medium', 'high'], defaultEffort: 'medium', toolsOnlyAtNone: false };
  }
  if (/^gpt-(4\.1|4o)/.test(model)) return { efforts: [], defaultEffort: 'none', toolsOnlyAtNone: false };
  return undefined;
}

/** The effort a request reasons at: the one it names, else its model's own (`none` for models the fake does not know). */
export function reasoningEffortOf(body: Record<string, unknown>): string {
  const named = body['reasoning_effort'];
  return typeof named === 'string' ? named : (openAiModel(String(body['model']))?.defaultEffort ?? 'none');
}

export interface OpenAiRefusal {
  readonly message: string;
  readonly param: string;
}

/** Why the real API would refuse this request for its model (400 `invalid_request_error`), or undefined. */
export function openAiRefusal(body: Record<string, unknown>): OpenAiRefusal | undefined {
  const name = String(body['model']);
  const model = openAiModel(name);
  if (model === undefined) return undefined;
  const named = body['reasoning_effort'];
  if (named !== undefined && named !== null && model.efforts.length === 0) {
    return { message: "Unsupported parameter: 'reasoning_effort' is not supported with this model.", param: 'reasoning_effort' };
  }
  if (typeof named === 'string' && !model.efforts.includes(named)) {
    const supported = model.efforts.map((e) => `'${e}'`).join(', ');
    return {
      message: `Unsupported value: 'reasoning_effort' does not support '${named}' with this model. Supported values are: ${supported}.`,
      param: 'reasoning_effort',
    };
  }
  const effort = reasoningEffortOf(body);
  const tools = Array.isArray(body['tools']) && body['tools'].some((tool) => isRecord(tool) && tool['type'] === 'function');
  if (tools && model.toolsOnlyAtNone && effort !== 'none') {
    return {
      message: `Function tools with reasoning_effort are not supported for ${name} in /v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to 'none'.`,
      param: 'reasoning_effort',
    };
  }
  for (const field of ['temperature', 'top_p']) {
    if (body[field] !== undefined && body[field] !== null && model.efforts.length > 0 && effort !== 'none' && body[field] !== 1) {
      return { message: `Unsupported parameter: '${field}' is not supported with this model.`, param: field };
    }
  }
  return undefined;
}
