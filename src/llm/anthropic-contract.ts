import type { ContentBlockParam, OutputConfig, ThinkingConfigParam } from '@anthropic-ai/sdk/resources/messages';
import { transformJSONSchema } from '@anthropic-ai/sdk/lib/transform-json-schema';
import { err, ok, type Result } from '../result.ts';
import { thinkingRoom, thinksByDefault, type RequestContract } from './request-contract.ts';
import type { LlmError, LlmMessage, LlmRequest } from './types.ts';

/** What a model's contract adds to a Messages request (`request-contract.ts`). */
export interface AnthropicSettings {
  readonly thinking?: ThinkingConfigParam;
  readonly output_config?: OutputConfig;
  /** Output tokens to add to `max_tokens` for thinking, which counts toward it. */
  readonly thinkingRoom: number;
}

/**
 * - `output_config.format` carries the output schema where the model takes no forced tool (Claude
 *   5.x), made fit for its constrained decoding by the SDK's own converter (bounds such as `minimum`
 *   are refused by the API; the converter moves them into the description).
 * - `output_config.effort` is sent when asked for and the model takes one.
 * - `thinking: false` sends the model's off switch: `between_tools` (Sonnet 5.5) or `disabled`; a
 *   model that always thinks (Opus 5.5) is steered by the effort alone.
 */
export function anthropicSettings(request: LlmRequest, contract: RequestContract): Result<AnthropicSettings, LlmError> {
  const config: OutputConfig = {};
  if (request.effort !== undefined && contract.efforts.includes(request.effort)) config.effort = request.effort;
  if (request.output !== undefined && contract.outputFormat) {
    try {
      config.format = { type: 'json_schema', schema: transformJSONSchema(request.output.schema) };
    } catch (error) {
      return err({
        kind: 'bad_request',
        message: `output schema ${request.output.name}: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
  }
  const thinking = thinkingOf(request, contract);
  return ok({
    ...(thinking && { thinking }),
    ...(Object.keys(config).length > 0 && { output_config: config }),
    thinkingRoom: roomFor(request, contract, thinking),
  });
}

function thinkingOf(request: LlmRequest, contract: RequestContract): ThinkingConfigParam | undefined {
  if (request.thinking !== false || contract.thinkingOff === undefined) return undefined;
  // Haiku 5.5's prompting guide: with thinking disabled and a JSON format it skips tool calls it needs.
  if (contract.thinkingOff === 'disabled' && request.output !== undefined && (request.tools?.length ?? 0) > 0) return undefined;
  return { type: contract.thinkingOff };
}

function roomFor(request: LlmRequest, contract: RequestContract, thinking: ThinkingConfigParam | undefined): number {
  if (!thinksByDefault(contract) || thinking?.type === 'disabled') return 0;
  // Short progress notes between tool calls come back as thinking blocks.
  if (thinking?.type === 'between_tools') return (request.tools?.length ?? 0) > 0 ? thinkingRoom('minimal') : 0;
  return thinkingRoom(effortOf(request, contract));
}

/** The effort the model works at: the one asked for where it takes it, else its own. */
function effortOf(request: LlmRequest, contract: RequestContract): RequestContract['defaultEffort'] {
  return request.effort !== undefined && contract.efforts.includes(request.effort) ? request.effort : contract.defaultEffort;
}

/**
 * An assistant turn's content as it came, when it came from this model: its thinking blocks must go
 * back unchanged and in their place (they are bound to the model, and a tool loop refuses to go on
 * without them). Undefined when the turn must be rebuilt from its text and calls.
 */
export function verbatimContent(message: Extract<LlmMessage, { role: 'assistant' }>, model: string): ContentBlockParam[] | undefined {
  const turn = message.verbatim;
  if (turn === undefined || turn.provider !== 'anthropic' || turn.model !== model) return undefined;
  return turn.content as ContentBlockParam[];
}
