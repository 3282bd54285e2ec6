import type { FailureReason } from '../../db/editor-turns.ts';
import type { LlmError } from '../../llm/types.ts';

/** Why a model call of the editor failed, as the user is told it. */
export type ModelFailure = Exclude<FailureReason, 'no_model' | 'budget' | 'persona_gone' | 'internal' | 'restart'>;

/** Anthropic says 529 (or an `overloaded_error` event mid-stream) when it has no capacity. */
const OVERLOADED = /overloaded/i;

/** The category of a failed call; `aborted` never gets here (it is a stop, not a failure). */
export function modelFailureOf(error: LlmError): ModelFailure {
  switch (error.kind) {
    case 'server':
      return error.status === 529 || OVERLOADED.test(error.message) ? 'overloaded' : 'server';
    case 'rate_limited':
      return 'rate_limited';
    case 'timeout':
    case 'aborted':
      return 'timeout';
    case 'network':
      return 'network';
    case 'auth':
      return 'auth';
    case 'model_unavailable':
      return 'model_unavailable';
    case 'bad_request':
      return 'rejected';
    case 'bad_response':
    case 'budget':
      return 'bad_response';
  }
}

/**
 * One plain sentence per category: the provider's own words (status codes, JSON bodies, URLs)
 * go to the log, never to the chat.
 */
export function modelFailureMessage(failure: ModelFailure): string {
  switch (failure) {
    case 'overloaded':
      return 'The model is overloaded right now. Send your message again in a minute; what was done so far is kept.';
    case 'rate_limited':
      return 'The model is getting too many requests from this bot right now. Send your message again in a minute.';
    case 'timeout':
      return 'The model took too long to answer. Send your message again, perhaps asking for less at once.';
    case 'network':
      return 'The connection to the model was lost mid-answer. Send your message again; what was done so far is kept.';
    case 'refused':
      return 'The model declined to answer that. Try putting the request differently.';
    case 'rejected':
      return 'The model service refused the request. Try a shorter message, or clear the conversation to start over.';
    case 'auth':
      return "The model service does not accept the bot's API key; whoever runs the bot needs to check it.";
    case 'model_unavailable':
      return "The editor's model is retired or unknown to its provider; whoever runs the bot needs to change EDITOR_MODEL (or the provider's model it defaults to).";
    case 'server':
      return 'The model service had an error. Send your message again in a moment.';
    case 'bad_response':
      return 'The model sent an answer that could not be read. Send your message again.';
  }
}
