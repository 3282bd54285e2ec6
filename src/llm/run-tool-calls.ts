import { z } from 'zod';
import type { Tool } from './tool.ts';
import type { LlmMessage, ToolCall } from './types.ts';

export type ToolResult = Extract<LlmMessage, { role: 'tool' }>;

/**
 * Runs every call of one model response at once and returns their results in call order.
 * Never rejects: an unknown tool, input the schema refuses, or a handler that throws becomes a
 * result marked `isError` with a message the model can act on.
 */
export function runToolCalls<Context>(
  calls: readonly ToolCall[],
  tools: readonly Tool<unknown, Context>[],
  context: Context,
  signal?: AbortSignal,
): Promise<ToolResult[]> {
  return Promise.all(calls.map((call) => runToolCall(call, tools, context, signal)));
}

async function runToolCall<Context>(
  call: ToolCall,
  tools: readonly Tool<unknown, Context>[],
  context: Context,
  signal: AbortSignal | undefined,
): Promise<ToolResult> {
  const result = (content: string, isError: boolean): ToolResult => ({
    role: 'tool',
    toolCallId: call.id,
    toolName: call.name,
    content,
    isError,
  });
  const tool = tools.find((candidate) => candidate.name === call.name);
  if (tool === undefined) {
    const known = tools.map((candidate) => candidate.name).join(', ') || 'none';
    return result(`There is no tool named "${call.name}". The tools are: ${known}.`, true);
  }
  const input = tool.input.safeParse(call.input);
  if (!input.success) {
    return result(`The input of ${call.name} was refused, nothing was done:\n${z.prettifyError(input.error)}`, true);
  }
  try {
    return result(await tool.run(input.data, context, signal), false);
  } catch (error) {
    return result(`${call.name} failed: ${error instanceof Error ? error.message : String(error)}`, true);
  }
}
