import { randomUUID } from 'node:crypto';
import type { EditorStore } from '../../db/editor-store.ts';
import { personaName } from '../../persona/persona.ts';
import { runToolCalls } from '../../llm/run-tool-calls.ts';
import { toolSpec, type Tool } from '../../llm/tool.ts';
import type { LlmError, LlmProvider, LlmResponse, ToolCall, VerbatimTurn } from '../../llm/types.ts';
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
 * Answers the session's latest user turn: call the model (streaming), persist its text and tool
 * calls, run the calls one by one (they edit the same persona, whose versions must follow each
 * other), persist each result, repeat until the model ends its turn. Every turn is saved as it
 * happens, so a stop or a crash keeps what was done. After `maxRounds` calls the model must answer
 * without tools.
 */
export async function runAgent(run: AgentRun): Promise<Result<RunEnd, EditorError>> {
  const { llm, store, session, context, onEvent, signal } = run;
  const specs = run.tools.map(toolSpec);
  // This run's responses as their provider sent them, by responseId: a tool round goes on only with its thinking blocks.
  const verbatim = new Map<string, VerbatimTurn>();
  let summarizedThrough = session.summarizedThrough;
  for (let round = 1; ; round++) {
    if (signal?.aborted) return stopped(onEvent);
    const persona = await context.personas.get(context.actor, context.personaId);
    if (!persona.ok) return personaGone(onEvent, persona.error.code === 'forbidden' ? 'forbidden' : 'not_found', persona.error.message);
    const history = trimHistory(await store.turns(session.id), run.historyTurns);
    if (history.through > summarizedThrough) {
      await store.summarize(session.id, history.summary, history.through);
      summarizedThrough = history.through;
    }
    const lastRound = round >= run.maxRounds;
    const streamed = await streamResponse(run, {
      model: llm.model,
      system: { stable: editorSystemPrompt({ id: persona.value.id, name: personaName(persona.value) }), dynamic: history.summary },
      messages: toLlmMessages(history.kept, verbatim),
      tools: specs,
      toolChoice: lastRound ? 'none' : 'auto',
      maxTokens: MAX_TOKENS,
      // No thinking before tool calls where the model allows it (Sonnet 5.5: text between tool calls
      // then streams as text, not as thinking blocks); the balanced effort for agentic edits.
      thinking: false,
      effort: 'medium',
      ...(signal && { signal }),
    });
    const responseId = randomUUID();
    if (!streamed.ok) {
      // Text that streamed before the stop or failure was seen; it is kept.
      const { cause, text } = streamed.error;
      if (text !== '') await store.append(session.id, [{ kind: 'assistant_text', text, responseId }]);
      if (cause.kind === 'aborted') return stopped(onEvent);
      return modelFailed(
        onEvent,
        modelFailureOf(cause),
        `${cause.kind}${cause.status === undefined ? '' : ` ${cause.status}`}: ${cause.message}`,
      );
    }
    const { response, announced } = streamed.value;
    const calls = lastRound ? [] : response.toolCalls;
    if (response.verbatim !== undefined && calls.length === response.toolCalls.length) verbatim.set(responseId, response.verbatim);
    const turns: NewEditorTurn[] = [
      ...(response.text !== '' ? [{ kind: 'assistant_text' as const, text: response.text, responseId }] : []),
      ...calls.map((call) => ({ kind: 'tool_call' as const, callId: call.id, toolName: call.name, input: call.input, responseId })),
    ];
    await store.append(session.id, turns);
    if (response.text !== '') onEvent({ type: 'text_done', text: response.text });
    if (response.stopReason === 'refusal') return modelFailed(onEvent, 'refused', 'the model stopped with stop_reason refusal');
    for (const call of calls) if (!announced.has(call.id)) announce(onEvent, call);
    if (calls.length === 0) {
      const end = lastRound ? 'round_cap' : 'end_turn';
      onEvent({ type: 'done', reason: end });
      return ok(end);
    }
    for (const [i, call] of calls.entries()) {
      if (signal?.aborted) {
        // The calls that will not run still need results, or the history is refused by the provider.
        await store.append(
          session.id,
          calls.slice(i).map((c) => ({ kind: 'tool_result' as const, callId: c.id, toolName: c.name, text: NOT_RUN, isError: true })),
        );
        return stopped(onEvent);
      }
      const [result] = await runToolCalls([call], run.tools, context, signal);
      if (result === undefined) throw new Error(`no result for tool call ${call.id}`);
      await store.append(session.id, [
        { kind: 'tool_result', callId: call.id, toolName: call.name, text: result.content, isError: result.isError },
      ]);
      onEvent({ type: 'tool_result', callId: call.id, name: call.name, text: result.content, isError: result.isError });
    }
  }
}

/** A response streamed to its end, with the tool calls already announced on the way. */
interface Streamed {
  readonly response: LlmResponse;
  readonly announced: ReadonlySet<string>;
}

/** A stream that failed or was stopped, with the text that came before. */
interface Broken {
  readonly cause: LlmError;
  readonly text: string;
}

/** One model call, its text and tool calls reported as they stream. */
async function streamResponse(run: AgentRun, request: Parameters<LlmProvider['stream']>[0]): Promise<Result<Streamed, Broken>> {
  const announced = new Set<string>();
  let text = '';
  for await (const delta of run.llm.provider.stream(request)) {
    switch (delta.type) {
      case 'text':
        text += delta.text;
        run.onEvent({ type: 'text_delta', text: delta.text });
        break;
      case 'tool_call':
        announced.add(delta.call.id);
        announce(run.onEvent, delta.call);
        break;
      case 'done':
        return ok({ response: delta.response, announced });
      case 'error':
        return err({ cause: delta.error, text });
    }
  }
  return err({ cause: { kind: 'bad_response', message: 'the stream ended without a response' }, text });
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
