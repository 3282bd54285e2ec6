import { firstWords } from '../../persona/text.ts';
import type { LlmMessage, ToolCall, VerbatimTurn } from '../../llm/types.ts';
import type { EditorTurn } from '../../db/editor-turns.ts';

/** Turns the model sees in full; older ones reach it as a summary. */
const DEFAULT_HISTORY_TURNS = 60;

export const NOT_RUN = 'Not run: the run was stopped before this tool ran.';

/**
 * The provider-neutral messages of a session, which each provider's request builder turns into its
 * own format (Anthropic: calls as tool_use blocks of one assistant message, their results as
 * tool_result blocks of one user message; OpenAI: one assistant message with tool_calls, then one
 * tool message per result).
 * - The assistant_text and tool_calls of one model response become one assistant message.
 * - A call without a recorded result gets an error result, and a result without its call is
 *   dropped: both providers refuse either.
 * - A response found in `verbatim` (by its responseId) carries its turn as the provider sent it: the
 *   run's own tool rounds, whose thinking blocks the provider needs back (they are not stored).
 */
export function toLlmMessages(turns: readonly EditorTurn[], verbatim: ReadonlyMap<string, VerbatimTurn> = new Map()): LlmMessage[] {
  const called = new Set(turns.flatMap((t) => (t.kind === 'tool_call' ? [t.callId] : [])));
  const out: LlmMessage[] = [];
  let group = null as { responseId: string; text: string[]; calls: ToolCall[] } | null;
  const flush = (): void => {
    if (group !== null) out.push(assistantMessage(group.text, group.calls, verbatim.get(group.responseId)));
    group = null;
  };
  for (const turn of turns) {
    // Records of what did not reach the model (a stopped message, a failure) are not conversation.
    if (turn.kind === 'unsent' || turn.kind === 'failed') continue;
    if (turn.kind === 'assistant_text' || turn.kind === 'tool_call') {
      if (group?.responseId !== turn.responseId) {
        flush();
        group = { responseId: turn.responseId, text: [], calls: [] };
      }
      if (turn.kind === 'assistant_text') group.text.push(turn.text);
      else group.calls.push({ id: turn.callId, name: turn.toolName, input: turn.input ?? {} });
      continue;
    }
    flush();
    if (turn.kind === 'user') out.push({ role: 'user', content: turn.text });
    else if (called.has(turn.callId)) {
      out.push({ role: 'tool', toolCallId: turn.callId, toolName: turn.toolName, content: turn.text, isError: turn.isError });
    }
  }
  flush();
  return withEveryResult(out);
}

function assistantMessage(text: readonly string[], calls: readonly ToolCall[], verbatim: VerbatimTurn | undefined): LlmMessage {
  const content = text.join('\n\n');
  const message: LlmMessage = calls.length > 0 ? { role: 'assistant', content, toolCalls: calls } : { role: 'assistant', content };
  return verbatim === undefined ? message : { ...message, verbatim };
}

/** After each assistant message's results, an error result for every call that has none. */
function withEveryResult(messages: readonly LlmMessage[]): LlmMessage[] {
  const out: LlmMessage[] = [];
  // The calls of the last assistant message that no result has answered yet.
  let unanswered: readonly ToolCall[] = [];
  const settle = (): void => {
    for (const call of unanswered) out.push({ role: 'tool', toolCallId: call.id, toolName: call.name, content: NOT_RUN, isError: true });
    unanswered = [];
  };
  for (const message of messages) {
    if (message.role === 'tool') {
      unanswered = unanswered.filter((call) => call.id !== message.toolCallId);
    } else {
      settle();
      if (message.role === 'assistant') unanswered = message.toolCalls ?? [];
    }
    out.push(message);
  }
  settle();
  return out;
}

export interface TrimmedHistory {
  /** What the model gets in full, starting with a user turn. */
  readonly kept: readonly EditorTurn[];
  /** The seq of the last turn left out (0 when none was). */
  readonly through: number;
  /** What the left-out turns said ('' when none were). */
  readonly summary: string;
}

/**
 * The last `keep` turns or a few more: the cut moves back to the user turn that began that
 * exchange, so a tool call is never separated from its result nor an answer from its question.
 */
export function trimHistory(turns: readonly EditorTurn[], keep = DEFAULT_HISTORY_TURNS): TrimmedHistory {
  let start = Math.max(0, turns.length - keep);
  while (start > 0 && turns[start]?.kind !== 'user') start -= 1;
  const dropped = turns.slice(0, start);
  return { kept: turns.slice(start), through: dropped.at(-1)?.seq ?? 0, summary: summarize(dropped) };
}

/** A plain account of older turns: what the user asked and what the tools did, most recent last. */
export function summarize(turns: readonly EditorTurn[], maxLines = 30): string {
  const lines: string[] = [];
  let tools: string[] = [];
  const flushTools = (): void => {
    if (tools.length > 0) lines.push(`  tools: ${tools.join(', ')}`);
    tools = [];
  };
  for (const turn of turns) {
    if (turn.kind === 'user') {
      flushTools();
      lines.push(`- The user asked: “${firstWords(turn.text, 30)}”`);
    } else if (turn.kind === 'tool_result') {
      tools.push(`${turn.toolName} ${turn.isError ? '✗' : '✓'}`);
    } else if (turn.kind === 'assistant_text') {
      flushTools();
      lines.push(`  you said: “${firstWords(turn.text, 25)}”`);
    }
  }
  flushTools();
  if (lines.length === 0) return '';
  const shown = lines.slice(-maxLines);
  const omitted = lines.length - shown.length;
  return [
    `Earlier in this session (${turns.length} turns, not shown in full${omitted > 0 ? `; the oldest ${omitted} lines left out` : ''}):`,
    ...shown,
  ].join('\n');
}
