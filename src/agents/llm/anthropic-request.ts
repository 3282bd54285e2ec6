import type {
  ContentBlockParam,
  MessageCreateParamsBase,
  MessageParam,
  TextBlockParam,
  Tool,
  ToolChoice,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import { err, ok, type Result } from '../../result.ts';
import type { JsonSchema, LlmError, LlmMessage, LlmRequest, ToolSpec } from './types.ts';

/** The Messages API requires a limit; a persona's speech or decision fits well inside it. */
export const DEFAULT_MAX_TOKENS = 1024;

type MessageParams = Omit<MessageCreateParamsBase, 'stream'>;

/** The sentence that makes the output tool the way to answer; the fake server reads it too. */
export function finishInstruction(outputName: string): string {
  return (
    `When you are ready to give your final answer, give it by calling the \`${outputName}\` tool ` +
    '(its input is your answer). Do not write the final answer as plain text.'
  );
}

/**
 * The Messages API body for a request.
 * - System: the stable prefix as its own text block marked `cache_control: ephemeral` (the tools
 *   and that block are then cached across a seat's calls), the dynamic part after it.
 * - Structured output: a tool named after `request.output.name` whose input schema is the output
 *   schema, and an instruction to finish with it; forced when no other tool may be called.
 * - `temperature` is not sent: the Messages API of SDK 1.x (API version 2026-10-21) has none.
 */
export function toMessageParams(request: LlmRequest): Result<MessageParams, LlmError> {
  const tools = [...(request.tools ?? [])];
  const output = request.output;
  if (output !== undefined) {
    if (tools.some((tool) => tool.name === output.name)) {
      return err({ kind: 'bad_request', message: `the output ${output.name} has the name of a tool` });
    }
    tools.push({ name: output.name, description: output.description ?? `Your final answer (${output.name}).`, inputSchema: output.schema });
  }
  const apiTools: Tool[] = [];
  for (const tool of tools) {
    const schema = inputSchema(tool.inputSchema);
    if (schema === null) return err({ kind: 'bad_request', message: `the input schema of ${tool.name} is not an object schema` });
    apiTools.push({ name: tool.name, description: tool.description, input_schema: schema });
  }
  const params: MessageParams = {
    model: request.model,
    max_tokens: request.maxTokens ?? DEFAULT_MAX_TOKENS,
    system: systemBlocks(request),
    messages: apiMessages(request.messages),
  };
  if (apiTools.length > 0) {
    params.tools = apiTools;
    params.tool_choice = toolChoice(request, tools);
  }
  return ok(params);
}

function toolChoice(request: LlmRequest, tools: readonly ToolSpec[]): ToolChoice {
  const output = request.output;
  const onlyOutput = output !== undefined && tools.length === 1;
  if (output !== undefined && (request.toolChoice === 'none' || onlyOutput)) return { type: 'tool', name: output.name };
  return request.toolChoice === 'none' ? { type: 'none' } : { type: 'auto' };
}

function systemBlocks(request: LlmRequest): TextBlockParam[] {
  const blocks: TextBlockParam[] = [{ type: 'text', text: request.system.stable, cache_control: { type: 'ephemeral' } }];
  // After the cached block, so asking for an output or not leaves the stable prefix identical.
  const dynamic = [request.system.dynamic, request.output && finishInstruction(request.output.name)].filter(
    (part): part is string => part !== undefined && part !== '',
  );
  if (dynamic.length > 0) blocks.push({ type: 'text', text: dynamic.join('\n\n') });
  return blocks;
}

function inputSchema(schema: JsonSchema): Tool.InputSchema | null {
  return schema['type'] === 'object' ? { ...schema, type: 'object' } : null;
}

/**
 * Tool results travel in a user message; consecutive ones share it. An assistant message with no
 * text and no calls is dropped: the API refuses empty content, and joins the user turns around it.
 */
function apiMessages(messages: readonly LlmMessage[]): MessageParam[] {
  const out: MessageParam[] = [];
  let results: ToolResultBlockParam[] = [];
  const flushResults = (): void => {
    if (results.length > 0) out.push({ role: 'user', content: results });
    results = [];
  };
  for (const message of messages) {
    if (message.role === 'tool') {
      results.push({ type: 'tool_result', tool_use_id: message.toolCallId, content: message.content, is_error: message.isError });
      continue;
    }
    flushResults();
    if (message.role === 'user') {
      out.push({ role: 'user', content: message.content });
      continue;
    }
    const content: ContentBlockParam[] = [];
    if (message.content !== '') content.push({ type: 'text', text: message.content });
    for (const call of message.toolCalls ?? []) content.push({ type: 'tool_use', id: call.id, name: call.name, input: call.input ?? {} });
    if (content.length > 0) out.push({ role: 'assistant', content });
  }
  flushResults();
  return out;
}
