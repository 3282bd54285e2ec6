import { err, ok, type Result } from '../result.ts';
import { runToolCalls } from './run-tool-calls.ts';
import { toolSpec, type Tool } from './tool.ts';
import type { LlmError, LlmMessage, LlmProvider, LlmRequest, LlmResponse } from './types.ts';

export interface ToolLoopOptions<Context> {
  readonly provider: LlmProvider;
  /** The first request; `tools` are added from the `tools` option, the signal from `signal`. */
  readonly request: Omit<LlmRequest, 'tools' | 'toolChoice' | 'signal'>;
  readonly tools: readonly Tool<unknown, Context>[];
  /** Handed to every tool's `run`. */
  readonly context: Context;
  /** Rounds of tool calls before the model must answer without tools. Default 4. */
  readonly maxToolRounds?: number;
  readonly signal?: AbortSignal;
}

export interface ToolLoopOutcome {
  /** The model's last response: its answer. */
  readonly response: LlmResponse;
  /**
   * What the last call was sent: the request's messages, then each round's assistant message
   * (with its tool calls) and tool results. Not the answer itself: to re-ask, append the answer
   * and the complaint.
   */
  readonly messages: readonly LlmMessage[];
  /** Rounds of tool calls that were run. */
  readonly rounds: number;
}

/**
 * Call the model; run every tool call of its response in parallel; give it the results; repeat
 * until it answers without calling a tool. After `maxToolRounds` rounds it is asked once more with
 * tools forbidden (`toolChoice: 'none'`, so the history's tool calls stay valid and the cached
 * prefix unchanged), and that answer ends the loop; tool calls it still makes are not run.
 * A failed model call ends the loop with its error: the caller falls back.
 */
export async function runToolLoop<Context>(options: ToolLoopOptions<Context>): Promise<Result<ToolLoopOutcome, LlmError>> {
  const { provider, request, tools, context, signal } = options;
  const maxToolRounds = options.maxToolRounds ?? 4;
  const specs = tools.map(toolSpec);
  const messages: LlmMessage[] = [...request.messages];
  let rounds = 0;
  for (;;) {
    if (signal?.aborted) return err({ kind: 'aborted', message: 'the call was aborted' });
    const lastCall = rounds >= maxToolRounds;
    const next: LlmRequest = {
      ...request,
      messages: [...messages],
      ...(specs.length > 0 && { tools: specs, toolChoice: lastCall ? 'none' : 'auto' }),
      ...(signal && { signal }),
    };
    const result = await provider.complete(next);
    if (!result.ok) return result;

    const response = result.value;
    if (response.toolCalls.length === 0 || lastCall) return ok({ response, messages, rounds });
    // With its thinking blocks, where the provider sent some: the next round is refused without them.
    messages.push({
      role: 'assistant',
      content: response.text,
      toolCalls: response.toolCalls,
      ...(response.verbatim && { verbatim: response.verbatim }),
    });
    messages.push(...(await runToolCalls(response.toolCalls, tools, context, signal)));
    rounds += 1;
  }
}
