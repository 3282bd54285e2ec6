import { randomUUID } from 'node:crypto';
import type { EditorStore } from '../../db/editor-store.ts';
import { personaName } from '../../persona/persona.ts';
import type { Tool } from '../../llm/tool.ts';
import { toolLoop, type Conversation } from '../../llm/tool-loop.ts';
import type { LlmProvider, ToolCall, VerbatimTurn } from '../../llm/types.ts';
import { err, ok, type Result } from '../../result.ts';
import type { EditorError, EditorErrorCode, EditorEventHandler, RunEnd } from './events.ts';
import { modelFailureMessage, modelFailureOf, type ModelFailure } from './failures.ts';
import { NOT_RUN, toLlmMessages, trimHistory } from './history.ts';
import { editorSystemPrompt } from './system-prompt.ts';
import type { EditorToolContext } from './tools/context.ts';
import type { EditorSession, NewEditorTurn } from '../../db/editor-turns.ts';

/** Room for a reply that quotes a rewritten persona. */
const MAX_TOKENS = 4096;

export interface EditorLlm {
  readonly provider: LlmProvider;
  readonly model: string;
}

export interface AgentRun {
  readonly llm: EditorLlm;
  readonly store: EditorStore;
  readonly session: EditorSession;
  readonly tools: readonly Tool<unknown, EditorToolContext>[];
  readonly context: EditorToolContext;
  readonly maxRounds: number;
  readonly historyTurns: number;
  readonly onEvent: EditorEventHandler;
  readonly signal?: AbortSignal;
}

/**
 * Answers the session's latest user turn through the tool loop, streaming: each round's request is
 * read back from the stored turns (the persona as it now is, the history trimmed and summarized);
 * the model's text and tool calls are saved as they come, then its calls run one by one (they edit
 * the same persona, whose versions must follow each other), each result saved. Every turn is saved
 * as it happens, so a stop or a crash keeps what was done. After `maxRounds` calls the model must
 * answer without tools.
 */
export async function runAgent(run: AgentRun): Promise<Result<RunEnd, EditorError>> {
  const { llm, store, session, context, onEvent, signal } = run;
  // This run's responses as their provider sent them, by responseId: a tool round goes on only with its thinking blocks.
  const verbatim = new Map<string, VerbatimTurn>();
  let summarizedThrough = session.summarizedThrough;
  // What the current call streamed so far: its text is kept when the call fails or is stopped.
  let text = '';
  const announced = new Set<string>();

  const conversation: Conversation<EditorError> = {
    async next() {
      text = '';
      announced.clear();
      const persona = await context.personas.get(context.actor, context.personaId);
      if (!persona.ok) return personaGone(onEvent, persona.error.code === 'forbidden' ? 'forbidden' : 'not_found', persona.error.message);
      const history = trimHistory(await store.turns(session.id), run.historyTurns);
      if (history.through > summarizedThrough) {
        await store.summarize(session.id, history.summary, history.through);
        summarizedThrough = history.through;
      }
      return ok({
        model: llm.model,
        system: { stable: editorSystemPrompt({ id: persona.value.id, name: personaName(persona.value) }), dynamic: history.summary },
        messages: toLlmMessages(history.kept, verbatim),
        maxTokens: MAX_TOKENS,
        // No thinking before tool calls where the model allows it (Sonnet 5.5: text between tool calls
        // then streams as text, not as thinking blocks); the balanced effort for agentic edits.
        thinking: false,
        effort: 'medium',
      });
    },
    async answered(response, calls) {
      const responseId = randomUUID();
      if (response.verbatim !== undefined && calls.length === response.toolCalls.length) verbatim.set(responseId, response.verbatim);
      const turns: NewEditorTurn[] = [
        ...(response.text !== '' ? [{ kind: 'assistant_text' as const, text: response.text, responseId }] : []),
        ...calls.map((call) => ({ kind: 'tool_call' as const, callId: call.id, toolName: call.name, input: call.input, responseId })),
      ];
      await store.append(session.id, turns);
      text = '';
      if (response.text !== '') onEvent({ type: 'text_done', text: response.text });
      if (response.stopReason === 'refusal') return modelFailed(onEvent, 'refused', 'the model stopped with stop_reason refusal');
      for (const call of calls) if (!announced.has(call.id)) announce(onEvent, call);
      return ok(undefined);
    },
    async resulted(result) {
      const { toolCallId: callId, toolName: name, content, isError } = result;
      await store.append(session.id, [{ kind: 'tool_result', callId, toolName: name, text: content, isError }]);
      onEvent({ type: 'tool_result', callId, name, text: content, isError });
    },
  };

  const end = await toolLoop({
    provider: llm.provider,
    conversation,
    tools: run.tools,
    context,
    maxToolRounds: run.maxRounds - 1,
    ...(signal && { signal }),
    onDelta(delta) {
      if (delta.type === 'text') {
        text += delta.text;
        onEvent({ type: 'text_delta', text: delta.text });
      } else if (delta.type === 'tool_call') {
        announced.add(delta.call.id);
        announce(onEvent, delta.call);
      }
    },
    oneByOne: {
      async notRun(calls) {
        await store.append(
          session.id,
          calls.map((c) => ({ kind: 'tool_result' as const, callId: c.id, toolName: c.name, text: NOT_RUN, isError: true })),
        );
      },
    },
  });
  if (end.ok) {
    const reason = end.value.capped ? 'round_cap' : 'end_turn';
    onEvent({ type: 'done', reason });
    return ok(reason);
  }
  // Our own stop (the persona gone, a refusal): already told.
  if (!('kind' in end.error)) return err(end.error);
  const cause = end.error;
  // Text that streamed before the stop or failure was seen; it is kept.
  if (text !== '') await store.append(session.id, [{ kind: 'assistant_text', text, responseId: randomUUID() }]);
  if (cause.kind === 'aborted') return stopped(onEvent);
  return modelFailed(
    onEvent,
    modelFailureOf(cause),
    `${cause.kind}${cause.status === undefined ? '' : ` ${cause.status}`}: ${cause.message}`,
  );
}

function announce(onEvent: EditorEventHandler, call: ToolCall): void {
  onEvent({ type: 'tool_call', callId: call.id, name: call.name, input: call.input });
}

function stopped(onEvent: EditorEventHandler): Result<RunEnd, never> {
  onEvent({ type: 'done', reason: 'stopped' });
  return ok('stopped');
}

/** Deleted, or no longer the actor's to edit, since the run began. */
function personaGone(onEvent: EditorEventHandler, code: EditorErrorCode, message: string): Result<never, EditorError> {
  onEvent({ type: 'error', code, message });
  return err({ code, message, reason: 'persona_gone' });
}

/** The user reads the category's sentence; `detail`, the provider's words, is for the log. */
function modelFailed(onEvent: EditorEventHandler, failure: ModelFailure, detail: string): Result<never, EditorError> {
  const message = modelFailureMessage(failure);
  onEvent({ type: 'error', code: 'llm_failed', message });
  return err({ code: 'llm_failed', message, reason: failure, detail });
}
