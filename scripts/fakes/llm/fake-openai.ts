import {
  FakeLlmServer,
  type FakeHandler,
  type FakeMessage,
  type FakeReply,
  type FakeRequest,
  type FakeServerOptions,
  type FakeTurn,
} from './fake-llm-server.ts';
import { openAiPrompt } from './fake-openai-prompt.ts';
import { openAiModel, openAiRefusal, reasoningEffortOf } from './fake-openai-rules.ts';
import { thinkingTokens } from './fake-thinking.ts';
import type { CallUsage } from './fake-usage.ts';
import { fragments, isRecord, parseJsonOr, pieces, sse, stringOf, tail, textOf, type Dialect, type RequestView } from './fake-wire.ts';

/**
 * A fake OpenAI Chat Completions server: `POST /v1/chat/completions`, JSON or SSE
 * (`data: {chunk}` … `data: [DONE]`). Give `fake.baseURL` to the SDK. Unless a reply scripts its
 * usage, `cached_tokens` come from its automatic prompt cache (`fake-openai-prompt.ts`). Each model
 * is refused what OpenAI documents it refuses (`fake-openai-rules.ts`), and a reasoning model reports
 * `reasoning_tokens` by the effort it ran at (`fake-thinking.ts`).
 */
export function startFakeOpenAi(script?: FakeHandler | readonly FakeReply[], options?: FakeServerOptions): Promise<FakeLlmServer> {
  return FakeLlmServer.start(openAiDialect, script, options);
}

const openAiDialect: Dialect = {
  name: 'OpenAI',
  provider: 'openai',
  basePath: '/v1',
  endpoint: '/v1/chat/completions',
  describe,
  refuse: openAiRefusal,
  prompt: openAiPrompt,
  sent: (message, request) => [content(message) ?? '', ...wireCalls(message, request).map((call) => call.arguments)],
  thinking: (_message, request, answerTokens) =>
    (openAiModel(request.model)?.efforts.length ?? 0) > 0 ? thinkingTokens(answerTokens, reasoningEffortOf(request.body)) : undefined,
  scripted: (usage) => ({
    input: usage.input ?? 10,
    cachedRead: usage.cached ?? 0,
    cacheWrite: usage.cacheWrite ?? 0,
    cacheWrite1h: 0,
    output: usage.output ?? 5,
  }),
  json: completion,
  events: chunks,
  malformedEvent: 'data: {"choices": not json\n\n',
  // A 404 is what the API answers for a model it does not serve (unknown, retired, or not for this key).
  errorBody: (status, message, param) => ({
    error: {
      message,
      type: status === 404 ? 'invalid_request_error' : errorType(status),
      code: status === 404 ? 'model_not_found' : null,
      param: param ?? null,
    },
  }),
};

function errorType(status: number): string {
  if (status === 429) return 'rate_limit_exceeded';
  return status === 400 ? 'invalid_request_error' : 'fake_error';
}

function describe(body: Record<string, unknown>): RequestView {
  const messages = Array.isArray(body['messages']) ? body['messages'].filter(isRecord) : [];
  const system = messages
    .filter((m) => m['role'] === 'system' || m['role'] === 'developer')
    .map((m) => textOf(m['content']))
    .join('\n\n');
  const transcript = messages.filter((m) => m['role'] !== 'system' && m['role'] !== 'developer').map(turnOf);
  const tools = (Array.isArray(body['tools']) ? body['tools'] : [])
    .map((tool: unknown) => (isRecord(tool) && isRecord(tool['function']) ? String(tool['function']['name']) : ''))
    .filter((name) => name !== '');
  const format = body['response_format'];
  const jsonSchema =
    isRecord(format) && format['type'] === 'json_schema' && isRecord(format['json_schema']) ? format['json_schema'] : undefined;
  const outputSchema = jsonSchema?.['schema'];
  const users = transcript.filter((turn) => turn.role === 'user');
  return {
    stream: body['stream'] === true,
    model: stringOf(body['model']),
    system,
    tools,
    outputName: jsonSchema === undefined ? undefined : String(jsonSchema['name']),
    outputSchema: isRecord(outputSchema) ? outputSchema : undefined,
    transcript,
    lastUserText: users.at(-1)?.text ?? '',
    toolResults: tail(transcript, 'tool'),
  };
}

function turnOf(message: Record<string, unknown>): FakeTurn {
  const text = textOf(message['content']);
  if (message['role'] === 'tool') return { role: 'tool', text, toolCallId: stringOf(message['tool_call_id']) };
  if (message['role'] === 'assistant') {
    const calls = (Array.isArray(message['tool_calls']) ? message['tool_calls'] : []).filter(isRecord).map((call) => {
      const fn = isRecord(call['function']) ? call['function'] : {};
      return { id: String(call['id']), name: String(fn['name']), input: parseJsonOr(stringOf(fn['arguments']), fn['arguments']) };
    });
    return calls.length > 0 ? { role: 'assistant', text, toolCalls: calls } : { role: 'assistant', text };
  }
  return { role: 'user', text };
}

interface WireCall {
  id: string;
  name: string;
  arguments: string;
}

function content(message: FakeMessage): string | null {
  if (message.structured !== undefined) return JSON.stringify(message.structured);
  return message.text ?? (message.toolCalls?.length ? null : '');
}

function wireCalls(message: FakeMessage, request: FakeRequest): WireCall[] {
  return (message.toolCalls ?? []).map((call, i) => ({
    id: call.id ?? `call_${request.index}_${i}`,
    name: call.name,
    arguments: call.rawArguments ?? JSON.stringify(call.input ?? {}),
  }));
}

function finishReason(message: FakeMessage): string {
  switch (message.stop) {
    case 'max_tokens':
      return 'length';
    case 'refusal':
      return 'content_filter';
    case 'tool_use':
      return 'tool_calls';
    case 'end_turn':
      return 'stop';
    default:
      return message.toolCalls?.length ? 'tool_calls' : 'stop';
  }
}

/** `prompt_tokens` counts every prompt token; `cached_tokens` the part read from the cache. */
function usageOf(usage: CallUsage): Record<string, unknown> {
  return {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    // Cache writes are reported (and billed) from gpt-5.6 on; only a scripted reply has any here.
    prompt_tokens_details: { cached_tokens: usage.cachedRead, ...(usage.cacheWrite > 0 && { cache_write_tokens: usage.cacheWrite }) },
    ...(usage.thinking !== undefined && { completion_tokens_details: { reasoning_tokens: usage.thinking } }),
  };
}

function completion(message: FakeMessage, request: FakeRequest, usage: CallUsage): unknown {
  const calls = wireCalls(message, request);
  return {
    id: `chatcmpl-${request.index}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: content(message),
          refusal: null,
          ...(calls.length > 0 && {
            tool_calls: calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })),
          }),
        },
        finish_reason: finishReason(message),
        logprobs: null,
      },
    ],
    usage: usageOf(usage),
  };
}

function chunks(message: FakeMessage, request: FakeRequest, usage: CallUsage): string[] {
  const base = {
    id: `chatcmpl-${request.index}`,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: request.model,
  };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): string =>
    sse({ ...base, choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }] });
  const out = [chunk({ role: 'assistant', content: '' })];
  for (const piece of pieces(content(message) ?? '')) out.push(chunk({ content: piece }));
  wireCalls(message, request).forEach((call, index) => {
    out.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    for (const part of fragments(call.arguments)) out.push(chunk({ tool_calls: [{ index, function: { arguments: part } }] }));
  });
  out.push(chunk({}, finishReason(message)));
  const options = request.body['stream_options'];
  if (isRecord(options) && options['include_usage'] === true) out.push(sse({ ...base, choices: [], usage: usageOf(usage) }));
  out.push('data: [DONE]\n\n');
  return out;
}
