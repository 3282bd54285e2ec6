import { err, ok, type Result } from '../result.ts';
import { runToolCalls, type ToolResult } from './run-tool-calls.ts';
import { toolSpec, type Tool } from './tool.ts';
import type { LlmError, LlmMessage, LlmProvider, LlmRequest, LlmResponse, StreamDelta, ToolCall } from './types.ts';

/** A request as a loop's caller writes it: the loop adds the tools, whether they may be called, and the signal. */
export type LoopRequest = Omit<LlmRequest, 'tools' | 'toolChoice' | 'signal'>;

/**
 * Where a loop's conversation is kept between rounds: in memory for the seats (`inMemory`), in
 * the stored turns for the persona editor, whose every round is read back from them.
 * A hook's error (`Stop`) ends the loop with it.
 */
export interface Conversation<Stop> {
  /** The next call's request. */
  next(): Promise<Result<LoopRequest, Stop>>;
  /** The model's answer, and those of its tool calls that will run: none after the last round. */
  answered(response: LlmResponse, calls: readonly ToolCall[]): Promise<Result<void, Stop>>;
  /** One tool call's result, in call order. */
  resulted(result: ToolResult): Promise<void>;
}

export interface ToolLoopOptions<Context, Stop> {
  readonly provider: LlmProvider;
  readonly conversation: Conversation<Stop>;
  readonly tools: readonly Tool<unknown, Context>[];
  /** Handed to every tool's `run`. */
  readonly context: Context;
  /** Rounds of tool calls before the model must answer without tools. Default 4. */
  readonly maxToolRounds?: number;
  readonly signal?: AbortSignal;
  /** Streams every call, each delta handed here as it comes; without it the calls are completed. */
  readonly onDelta?: (delta: StreamDelta) => void;
  /**
   * Runs a round's calls one after another (tools that change one thing, each seeing the last
   * one's change) instead of all at once; when the signal aborts between two, the calls left are
   * handed to `notRun` and the loop ends aborted.
   */
  readonly oneByOne?: { readonly notRun: (calls: readonly ToolCall[]) => Promise<void> };
}

export interface ToolLoopEnd {
  /** The model's last response: its answer. */
  readonly response: LlmResponse;
  /** Rounds of tool calls that were run. */
  readonly rounds: number;
  /** The last call was the one after the last round, made with tools forbidden. */
  readonly capped: boolean;
}

/**
 * The one tool loop (the seats' and the persona editor's): call the model; run the tool calls of
 * its response; give it the results; repeat until it answers without calling a tool. After
 * `maxToolRounds` rounds it is asked once more with tools forbidden (`toolChoice: 'none'`, so the
 * history's tool calls stay valid and the cached prefix unchanged), and that answer ends the loop;
 * tool calls it still makes are not run. A failed model call ends the loop with its error.
 */
export async function toolLoop<Context, Stop>(options: ToolLoopOptions<Context, Stop>): Promise<Result<ToolLoopEnd, LlmError | Stop>> {
  const { provider, conversation, tools, context, signal, oneByOne } = options;
  const maxToolRounds = options.maxToolRounds ?? 4;
  const specs = tools.map(toolSpec);
  for (let rounds = 0; ; rounds++) {
    if (signal?.aborted) return aborted();
    const request = await conversation.next();
    if (!request.ok) return request;
    const capped = rounds >= maxToolRounds;
    const result = await call(
      provider,
      {
        ...request.value,
        ...(specs.length > 0 && { tools: specs, toolChoice: capped ? 'none' : 'auto' }),
        ...(signal && { signal }),
      },
      options.onDelta,
    );
    if (!result.ok) return result;
    const response = result.value;
    const calls = capped ? [] : response.toolCalls;
    const kept = await conversation.answered(response, calls);
    if (!kept.ok) return kept;
    if (calls.length === 0) return ok({ response, rounds, capped });
    if (oneByOne === undefined) {
      for (const result of await runToolCalls(calls, tools, context, signal)) await conversation.resulted(result);
      continue;
    }
    for (const [i, next] of calls.entries()) {
      if (signal?.aborted) {
        // The calls that will not run still need results, or the history is refused by the provider.
        await oneByOne.notRun(calls.slice(i));
        return aborted();
      }
      const [result] = await runToolCalls([next], tools, context, signal);
      if (result === undefined) throw new Error(`no result for tool call ${next.id}`);
      await conversation.resulted(result);
    }
  }
}

const aborted = (): Result<never, LlmError> => err({ kind: 'aborted', message: 'the call was aborted' });

/** One model call, completed, or streamed with each delta handed on. */
async function call(
  provider: LlmProvider,
  request: LlmRequest,
  onDelta: ((delta: StreamDelta) => void) | undefined,
): Promise<Result<LlmResponse, LlmError>> {
  if (onDelta === undefined) return provider.complete(request);
  for await (const delta of provider.stream(request)) {
    onDelta(delta);
    if (delta.type === 'done') return ok(delta.response);
    if (delta.type === 'error') return err(delta.error);
  }
  return err({ kind: 'bad_response', message: 'the stream ended without a response' });
}

/** A conversation kept in memory: the first request's messages, then each round's assistant message and tool results. */
function inMemory(request: LoopRequest): Conversation<never> & { readonly messages: readonly LlmMessage[] } {
  const messages: LlmMessage[] = [...request.messages];
  return {
    messages,
    next: () => Promise.resolve(ok({ ...request, messages: [...messages] })),
    answered(response, calls) {
      // With its thinking blocks, where the provider sent some: the next round is refused without them.
      if (calls.length > 0) {
        messages.push({
          role: 'assistant',
          content: response.text,
          toolCalls: response.toolCalls,
          ...(response.verbatim && { verbatim: response.verbatim }),
        });
      }
      return Promise.resolve(ok(undefined));
    },
    resulted(result) {
      messages.push(result);
      return Promise.resolve();
    },
  };
}

export interface ToolLoopOutcome extends ToolLoopEnd {
  /**
   * What the last call was sent: the request's messages, then each round's assistant message
   * (with its tool calls) and tool results. Not the answer itself: to re-ask, append the answer
   * and the complaint.
   */
  readonly messages: readonly LlmMessage[];
}

/** The loop over a conversation in memory, its tool calls run at once: the seats'. */
export async function runToolLoop<Context>(
  options: Omit<ToolLoopOptions<Context, never>, 'conversation' | 'onDelta' | 'oneByOne'> & { readonly request: LoopRequest },
): Promise<Result<ToolLoopOutcome, LlmError>> {
  const { request, ...loop } = options;
  const conversation = inMemory(request);
  const end = await toolLoop({ ...loop, conversation });
  return end.ok ? ok({ ...end.value, messages: conversation.messages }) : end;
}
