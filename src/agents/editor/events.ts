import type { FailureReason } from '../../db/editor-turns.ts';

/** What a run reports as it happens, in order, so the Discord layer can render it live. */
export type EditorEvent =
  /** The message waits for `ahead` earlier messages of this session to be answered. */
  | { readonly type: 'queued'; readonly ahead: number }
  | { readonly type: 'text_delta'; readonly text: string }
  /** The whole text of one model response, once it has streamed. */
  | { readonly type: 'text_done'; readonly text: string }
  | { readonly type: 'tool_call'; readonly callId: string; readonly name: string; readonly input: unknown }
  | { readonly type: 'tool_result'; readonly callId: string; readonly name: string; readonly text: string; readonly isError: boolean }
  | { readonly type: 'done'; readonly reason: RunEnd }
  | { readonly type: 'error'; readonly code: EditorErrorCode; readonly message: string };

/** end_turn: the model finished; round_cap: it was made to answer without tools; stopped: aborted, what was done is kept. */
export type RunEnd = 'end_turn' | 'round_cap' | 'stopped';

export type EditorErrorCode = 'not_found' | 'forbidden' | 'read_only' | 'invalid' | 'no_model' | 'budget' | 'llm_failed' | 'internal';

/** An expected failure with a sentence a person can act on. */
export interface EditorError {
  readonly code: EditorErrorCode;
  readonly message: string;
  /** Why a run failed once the user's message was saved: recorded as the conversation's failed turn. */
  readonly reason?: FailureReason;
  /** What went wrong in the provider's own words: for the log, never for the user. */
  readonly detail?: string;
}

export type EditorEventHandler = (event: EditorEvent) => void;
