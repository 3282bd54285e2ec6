import { anthropicPrompt, breakpointProblem } from './fake-anthropic-prompt.ts';
import { anthropicRefusal, claude5, effortOf, thinkingMode } from './fake-anthropic-rules.ts';
import {
  FakeLlmServer,
  type FakeHandler,
  type FakeMessage,
  type FakeReply,
  type FakeRequest,
  type FakeServerOptions,
  type FakeTurn,
} from './fake-llm-server.ts';
import { BETWEEN_TOOLS_NOTE_TOKENS, thinkingSignature, thinkingTokens } from './fake-thinking.ts';
import type { CallUsage } from './fake-usage.ts';
import { fragments, isRecord, pieces, sse, stringOf, tail, textOf, type Dialect, type RequestView } from './fake-wire.ts';

/**
 * A fake Anthropic Messages server: `POST /v1/messages`, JSON or SSE (`message_start`,
 * `content_block_start`/`_delta`/`_stop`, `message_delta`, `message_stop`). Give `fake.baseURL` to the SDK.
 *
 * A structured reply becomes a call of the output tool: the tool the system prompt tells the model
 * to finish with ("… by calling the `name` tool"), or the one `tool_choice` forces; with
 * `output_config.format` it is the JSON text of the answer, as the API gives it.
 *
 * Each model is refused what Anthropic documents it refuses (`fake-anthropic-rules.ts`). A model that
 * thinks opens its reply with a signed thinking block (display omitted, as Claude 5.x defaults to),
 * only before tool calls under `between_tools`, and reports the thinking tokens in its usage
 * (`fake-thinking.ts`); a tool loop that drops or alters the block is refused.
 *
 * Unless a reply scripts its usage, the cache figures come from its prompt cache: prefixes written
 * and read at `cache_control` breakpoints (`fake-anthropic-prompt.ts`); more than four markers are refused with 400.
 */
export function startFakeAnthropic(script?: FakeHandler | readonly FakeReply[], options?: FakeServerOptions): Promise<FakeLlmServer> {
  return FakeLlmServer.start(anthropicDialect, script, options);
}

const anthropicDialect: Dialect = {
  name: 'Anthropic',
  provider: 'anthropic',
  basePath: '',
  endpoint: '/v1/messages',
  describe,
  refuse: (body) => breakpointProblem(body) ?? anthropicRefusal(body),
  prompt: anthropicPrompt,
  sent: (reply, request) =>
    blocks(reply, request).map((block) => (block.type === 'text' ? block.text : block.type === 'tool_use' ? block.raw : '')),
  thinking: thinkingTokensOf,
  scripted: (usage) => {
    const cachedRead = usage.cached ?? 0;
    const cacheWrite = usage.cacheWrite ?? 0;
    return {
      input: (usage.input ?? 10) + cachedRead + cacheWrite,
      cachedRead,
      cacheWrite,
      cacheWrite1h: usage.cacheWrite1h ?? 0,
      output: usage.output ?? 5,
    };
  },
  json: message,
  events,
  malformedEvent: 'event: message_start\ndata: {"message": not json\n\n',
  errorBody: (status, text) => ({ type: 'error', error: { type: errorType(status), message: text } }),
};

function errorType(status: number): string {
  if (status === 429) return 'rate_limit_error';
  // What the API answers for a model it does not serve (unknown or retired).
  if (status === 404) return 'not_found_error';
  if (status === 529) return 'overloaded_error';
  if (status === 401) return 'authentication_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

function describe(body: Record<string, unknown>): RequestView {
  const system = textOf(body['system']);
  const tools = (Array.isArray(body['tools']) ? body['tools'] : [])
    .map((tool: unknown) => (isRecord(tool) ? String(tool['name']) : ''))
    .filter((name) => name !== '');
  const transcript = (Array.isArray(body['messages']) ? body['messages'] : []).filter(isRecord).flatMap(turnsOf);
  const users = transcript.filter((turn) => turn.role === 'user');
  const format = outputFormat(body);
  const outputName = format === undefined ? outputTool(body, system, tools) : FORMAT_OUTPUT;
  const outputSchema =
    format?.['schema'] ??
    (Array.isArray(body['tools']) ? body['tools'] : [])
      .filter(isRecord)
      .find((tool) => outputName !== undefined && tool['name'] === outputName)?.['input_schema'];
  return {
    stream: body['stream'] === true,
    model: stringOf(body['model']),
    system,
    tools,
    outputName,
    outputSchema: isRecord(outputSchema) ? outputSchema : undefined,
    transcript,
    lastUserText: users.at(-1)?.text ?? '',
    toolResults: tail(transcript, 'tool'),
  };
}

/** The `outputName` of a request that asks for `output_config.format`, which names no output. */
export const FORMAT_OUTPUT = 'output_config.format';

function outputFormat(body: Record<string, unknown>): Record<string, unknown> | undefined {
  const config = body['output_config'];
  const format = isRecord(config) ? config['format'] : undefined;
  return isRecord(format) ? format : undefined;
}

function outputTool(body: Record<string, unknown>, system: string, tools: readonly string[]): string | undefined {
  const choice = body['tool_choice'];
  if (isRecord(choice) && choice['type'] === 'tool') return String(choice['name']);
  const named = /by calling the `([^`]+)` tool/.exec(system)?.[1];
  return named !== undefined && tools.includes(named) ? named : undefined;
}

/** One API message can hold several turns: tool results and text in one user message. */
function turnsOf(message: Record<string, unknown>): FakeTurn[] {
  const blocks = Array.isArray(message['content']) ? message['content'].filter(isRecord) : [];
  if (message['role'] === 'assistant') {
    const calls = blocks
      .filter((block) => block['type'] === 'tool_use')
      .map((block) => ({ id: String(block['id']), name: String(block['name']), input: block['input'] }));
    const text = textOf(message['content']);
    return [calls.length > 0 ? { role: 'assistant', text, toolCalls: calls } : { role: 'assistant', text }];
  }
  if (typeof message['content'] === 'string') return [{ role: 'user', text: message['content'] }];
  const results: FakeTurn[] = blocks
    .filter((block) => block['type'] === 'tool_result')
    .map((block) => ({
      role: 'tool',
      text: textOf(block['content']),
      toolCallId: String(block['tool_use_id']),
      isError: block['is_error'] === true,
    }));
  const text = textOf(blocks.filter((block) => block['type'] === 'text'));
  return text === '' ? results : [...results, { role: 'user', text }];
}

type WireBlock =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'text'; text: string; citations: null }
  | { type: 'tool_use'; id: string; name: string; input: unknown; raw: string; caller: { type: 'direct' } };

/** Whether the model thinks before this reply: always when adaptive, before tool calls only under `between_tools`. */
function thinksBefore(reply: FakeMessage, request: FakeRequest): boolean {
  const mode = thinkingMode(request.body);
  return mode === 'adaptive' || (mode === 'between_tools' && (reply.toolCalls?.length ?? 0) > 0);
}

/** The reply's thinking tokens: a share of its answer by effort, or one progress note under `between_tools`. */
function thinkingTokensOf(reply: FakeMessage, request: FakeRequest, answerTokens: number): number | undefined {
  const mode = thinkingMode(request.body);
  if (claude5(request.model) === undefined && mode === 'off') return undefined;
  if (!thinksBefore(reply, request)) return 0;
  return mode === 'between_tools' ? BETWEEN_TOOLS_NOTE_TOKENS : thinkingTokens(answerTokens, effortOf(request.body));
}

function blocks(reply: FakeMessage, request: FakeRequest): WireBlock[] {
  const out: WireBlock[] = [];
  // Display `omitted`: the thinking comes back empty, its signature carries it.
  if (thinksBefore(reply, request))
    out.push({ type: 'thinking', thinking: '', signature: thinkingSignature(request.model, request.index, '') });
  const structuredTool = reply.structured === undefined || request.outputName === FORMAT_OUTPUT ? undefined : request.outputName;
  const text =
    reply.text ?? (reply.structured !== undefined && structuredTool === undefined ? JSON.stringify(reply.structured) : undefined);
  if (text !== undefined && text !== '') out.push({ type: 'text', text, citations: null });
  const calls = [...(reply.toolCalls ?? [])];
  if (structuredTool !== undefined) calls.push({ name: structuredTool, input: reply.structured });
  calls.forEach((call, i) => {
    const raw = call.rawArguments ?? JSON.stringify(call.input ?? {});
    out.push({
      type: 'tool_use',
      id: call.id ?? `toolu_${request.index}_${i}`,
      name: call.name,
      input: call.input ?? {},
      raw,
      caller: { type: 'direct' },
    });
  });
  return out;
}

function stopReason(reply: FakeMessage, wire: readonly WireBlock[]): string {
  if (reply.stop !== undefined) return reply.stop;
  return wire.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn';
}

/** Anthropic reports cache reads and writes beside `input_tokens`, which counts only the rest of the prompt. */
function usageOf(usage: CallUsage): Record<string, unknown> {
  return {
    input_tokens: usage.input - usage.cachedRead - usage.cacheWrite,
    output_tokens: usage.output,
    cache_read_input_tokens: usage.cachedRead,
    cache_creation_input_tokens: usage.cacheWrite,
    cache_creation: { ephemeral_5m_input_tokens: usage.cacheWrite - usage.cacheWrite1h, ephemeral_1h_input_tokens: usage.cacheWrite1h },
    inference_geo: null,
    output_tokens_details: usage.thinking === undefined ? null : { thinking_tokens: usage.thinking },
    server_tool_use: null,
    service_tier: 'standard',
    speed: null,
  };
}

function envelope(request: FakeRequest): Record<string, unknown> {
  return {
    id: `msg_${request.index}`,
    type: 'message',
    role: 'assistant',
    model: request.model,
    container: null,
    diagnostics: null,
    stop_details: null,
    stop_sequence: null,
  };
}

function message(reply: FakeMessage, request: FakeRequest, usage: CallUsage): unknown {
  const wire = blocks(reply, request);
  return {
    ...envelope(request),
    content: wire.map(({ raw: _raw, ...block }: WireBlock & { raw?: string }) => block),
    stop_reason: stopReason(reply, wire),
    usage: usageOf(usage),
  };
}

function events(reply: FakeMessage, request: FakeRequest, usage: CallUsage): string[] {
  const wire = blocks(reply, request);
  const out = [
    sse(
      {
        type: 'message_start',
        message: { ...envelope(request), content: [], stop_reason: null, usage: { ...usageOf(usage), output_tokens: 1 } },
      },
      'message_start',
    ),
    sse({ type: 'ping' }, 'ping'),
  ];
  wire.forEach((block, index) => {
    if (block.type === 'thinking') {
      out.push(
        sse(
          { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } },
          'content_block_start',
        ),
        sse({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } }, 'content_block_delta'),
      );
    } else if (block.type === 'text') {
      out.push(
        sse({ type: 'content_block_start', index, content_block: { type: 'text', text: '', citations: null } }, 'content_block_start'),
      );
      for (const piece of pieces(block.text)) {
        out.push(sse({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } }, 'content_block_delta'));
      }
    } else {
      const start = { type: 'tool_use', id: block.id, name: block.name, input: {}, caller: block.caller };
      out.push(sse({ type: 'content_block_start', index, content_block: start }, 'content_block_start'));
      for (const part of fragments(block.raw)) {
        out.push(
          sse({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: part } }, 'content_block_delta'),
        );
      }
    }
    out.push(sse({ type: 'content_block_stop', index }, 'content_block_stop'));
  });
  // As the API does, message_delta repeats the whole message's input and cache counts (the SDK overwrites with them).
  const final = usageOf(usage);
  out.push(
    sse(
      {
        type: 'message_delta',
        delta: { stop_reason: stopReason(reply, wire), stop_sequence: null, stop_details: null, container: null },
        usage: {
          output_tokens: final['output_tokens'],
          input_tokens: final['input_tokens'],
          cache_read_input_tokens: final['cache_read_input_tokens'],
          cache_creation_input_tokens: final['cache_creation_input_tokens'],
          output_tokens_details: final['output_tokens_details'],
          server_tool_use: null,
        },
      },
      'message_delta',
    ),
    sse({ type: 'message_stop' }, 'message_stop'),
  );
  return out;
}
