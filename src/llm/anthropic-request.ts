import type {
  ContentBlockParam,
  MessageCreateParamsBase,
  MessageParam,
  TextBlockParam,
  Tool,
  ToolChoice,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import { err, ok, type Result } from '../result.ts';
import { anthropicSettings, verbatimContent } from './anthropic-contract.ts';
import { requestContract, type RequestContract } from './request-contract.ts';
import type { CacheLifetime, CacheLifetimes, JsonSchema, LlmError, LlmMessage, LlmRequest, ToolSpec } from './types.ts';

/** The Messages API requires a limit; a persona's speech or decision fits well inside it. */
const DEFAULT_MAX_TOKENS = 1024;

type MessageParams = Omit<MessageCreateParamsBase, 'stream'>;

/** The sentence that makes the output tool the way to answer; the fake server reads it too. */
function finishInstruction(outputName: string): string {
  return (
    `When you are ready to give your final answer, give it by calling the \`${outputName}\` tool ` +
    '(its input is your answer). Do not write the final answer as plain text.'
  );
}

/**
 * The Messages API body for a request.
 * - System: the shared and the stable prefix each as a text block marked `cache_control: ephemeral`
 *   (Anthropic caches tools → system up to a breakpoint: the shared block is then read by every
 *   seat of a game, the stable one by every later call of the same seat), the dynamic part after.
 *   Each breakpoint lives as long as `request.cacheLifetime` asks (`ttl: '1h'`, or 5 minutes).
 * - A request that continues a conversation (tool results, a re-ask) also marks its last message,
 *   so the next round reads everything before it from the cache.
 * - Structured output: a tool named after `request.output.name` whose input schema is the output
 *   schema, and an instruction to finish with it; forced when no other tool may be called. A model
 *   that refuses forced tools (Claude 5.x) gets `output_config.format` instead (`anthropic-contract.ts`),
 *   and its thinking, effort and the thinking's room in `max_tokens` as its contract allows.
 * - An assistant turn that came with thinking blocks goes back as it came (`verbatim`).
 * - `temperature` is not sent: the Messages API of SDK 1.x (API version 2026-10-21) has none.
 */
export function toMessageParams(
  request: LlmRequest,
  contract: RequestContract = requestContract('anthropic', request.model),
): Result<MessageParams, LlmError> {
  const settings = anthropicSettings(request, contract);
  if (!settings.ok) return settings;
  const tools = [...(request.tools ?? [])];
  const output = contract.outputFormat ? undefined : request.output;
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
  const { thinkingRoom, ...modelFields } = settings.value;
  const marks = markers(request.cacheLifetime);
  const params: MessageParams = {
    model: request.model,
    max_tokens: (request.maxTokens ?? DEFAULT_MAX_TOKENS) + thinkingRoom,
    // The finishing instruction names the output tool: none when the output is a format.
    system: systemBlocks({ ...request, output }, marks),
    messages: markLastMessage(apiMessages(request.messages, output?.name, request.model, marks.turn)),
    ...modelFields,
  };
  if (apiTools.length > 0) {
    params.tools = apiTools;
    params.tool_choice = toolChoice(request, tools, output);
  }
  return ok(params);
}

function toolChoice(request: LlmRequest, tools: readonly ToolSpec[], output: LlmRequest['output']): ToolChoice {
  const onlyOutput = output !== undefined && tools.length === 1;
  if (output !== undefined && (request.toolChoice === 'none' || onlyOutput)) return { type: 'tool', name: output.name };
  return request.toolChoice === 'none' ? { type: 'none' } : { type: 'auto' };
}

/** A 5-minute breakpoint is sent bare, as it always was. */
const BREAKPOINT = { type: 'ephemeral' } as const;
const HOUR_BREAKPOINT = { type: 'ephemeral', ttl: '1h' } as const;
type Marker = typeof BREAKPOINT | typeof HOUR_BREAKPOINT;

const markerOf = (lifetime: CacheLifetime): Marker => (lifetime === '1h' ? HOUR_BREAKPOINT : BREAKPOINT);
const longer = (a: CacheLifetime, b: CacheLifetime): CacheLifetime => (a === '1h' || b === '1h' ? '1h' : '5m');

/**
 * The marker of each breakpoint. The API refuses a 1-hour breakpoint after a 5-minute one (in the
 * order tools, system, messages), so each part lives at least as long as any part after it.
 */
function markers(lifetimes: CacheLifetimes = {}): { shared: Marker; stable: Marker; turn: Marker } {
  const turn = lifetimes.turn ?? '5m';
  const stable = longer(lifetimes.stable ?? '5m', turn);
  const shared = longer(lifetimes.shared ?? '5m', stable);
  return { shared: markerOf(shared), stable: markerOf(stable), turn: markerOf(turn) };
}

function systemBlocks(request: LlmRequest, marks: { shared: Marker; stable: Marker }): TextBlockParam[] {
  const { shared, stable } = request.system;
  const blocks: TextBlockParam[] = [
    ...(shared ? [{ type: 'text' as const, text: shared, cache_control: marks.shared }] : []),
    { type: 'text', text: stable, cache_control: marks.stable },
  ];
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
 * Tool results travel in a user message; consecutive ones share it, and a user text that follows
 * joins them. An earlier structured answer was a call of the output tool, so the next user
 * message opens with its result. An assistant message with no text and no calls is dropped: the
 * API refuses empty content.
 */
function apiMessages(messages: readonly LlmMessage[], outputName: string | undefined, model: string, turnMarker: Marker): MessageParam[] {
  const out: MessageParam[] = [];
  let results: ContentBlockParam[] = [];
  const flushResults = (): void => {
    if (results.length > 0) out.push({ role: 'user', content: results });
    results = [];
  };
  messages.forEach((message, index) => {
    if (message.role === 'tool') {
      const result: ToolResultBlockParam = {
        type: 'tool_result',
        tool_use_id: message.toolCallId,
        content: message.content,
        is_error: message.isError,
      };
      results.push(result);
      return;
    }
    if (message.role === 'user') {
      const blocks = textBlocks(message, turnMarker);
      if (results.length > 0) {
        results.push(...blocks);
        flushResults();
      } else {
        const only = blocks.length === 1 ? blocks[0] : undefined;
        out.push({ role: 'user', content: only && !only.cache_control ? message.content : blocks });
      }
      return;
    }
    flushResults();
    const content = verbatimContent(message, model) ?? rebuiltContent(message, outputName, index);
    // An earlier answer was a call of the output tool: the next user message opens with its result.
    for (const block of content) {
      if (block.type === 'tool_use' && block.name === outputName) {
        results.push({ type: 'tool_result', tool_use_id: block.id, content: 'Received.' });
      }
    }
    if (content.length > 0) out.push({ role: 'assistant', content });
  });
  flushResults();
  return out;
}

/** An assistant turn from its text, tool calls and structured answer (a call of the output tool, or its JSON as text). */
function rebuiltContent(
  message: Extract<LlmMessage, { role: 'assistant' }>,
  outputName: string | undefined,
  index: number,
): ContentBlockParam[] {
  const content: ContentBlockParam[] = [];
  if (message.content !== '') content.push({ type: 'text', text: message.content });
  for (const call of message.toolCalls ?? []) content.push({ type: 'tool_use', id: call.id, name: call.name, input: call.input ?? {} });
  if (message.answer !== undefined && outputName !== undefined) {
    content.push({ type: 'tool_use', id: `answer_${index}`, name: outputName, input: message.answer });
  } else if (message.answer !== undefined) {
    content.push({ type: 'text', text: JSON.stringify(message.answer) });
  }
  return content;
}

/** A user message as text blocks, cut where it allows and with its own breakpoint, if it asks for one. */
function textBlocks(message: Extract<LlmMessage, { role: 'user' }>, marker: Marker): TextBlockParam[] {
  const cuts = [...new Set(message.cacheBreaks ?? [])].filter((at) => at > 0 && at < message.content.length).sort((a, b) => a - b);
  const blocks: TextBlockParam[] = [];
  let from = 0;
  for (const at of [...cuts, message.content.length]) {
    const text = message.content.slice(from, at);
    if (text !== '') blocks.push({ type: 'text', text, ...(at === message.cacheAt && { cache_control: marker }) });
    from = at;
  }
  return blocks.length > 0 ? blocks : [{ type: 'text', text: message.content }];
}

/** The breakpoint on a continued conversation's last block (a first call has nothing to reuse). */
function markLastMessage(messages: MessageParam[]): MessageParam[] {
  const last = messages.at(-1);
  if (messages.length < 2 || last === undefined || (last.role !== 'user' && last.role !== 'assistant')) return messages;
  const blocks: ContentBlockParam[] = typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : [...last.content];
  const tail = blocks.at(-1);
  if (tail === undefined || tail.type === 'thinking' || tail.type === 'redacted_thinking') return messages;
  blocks[blocks.length - 1] = { ...tail, cache_control: BREAKPOINT };
  return [...messages.slice(0, -1), { role: last.role, content: blocks }];
}
