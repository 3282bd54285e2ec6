import type { LlmError } from './types.ts';

/**
 * What a person is told when a model call fails: one plain sentence by kind. The provider's own
 * words (status lines, response bodies, URLs, request ids) go to the log, never to a chat.
 */
export function plainModelError(error: Pick<LlmError, 'kind'>): string {
  switch (error.kind) {
    case 'rate_limited':
      return 'The model is getting too many requests from this bot right now; try again in a minute.';
    case 'server':
      return 'The model service had an error; try again in a moment.';
    case 'timeout':
    case 'aborted':
      return 'The model took too long to answer; try again.';
    case 'network':
      return 'The connection to the model was lost; try again.';
    case 'auth':
      return "The model service does not accept the bot's API key; whoever runs the bot needs to check it.";
    case 'model_unavailable':
      return 'The model is retired or unknown to its provider; whoever runs the bot needs to change it.';
    case 'bad_request':
      return 'The model service refused the request; try a shorter text.';
    case 'bad_response':
      return 'The model sent an answer that could not be read; try again.';
    case 'budget':
      return "Today's AI budget is spent; nothing was sent to the model.";
  }
}

/** The provider's own account of a failure, for the log. */
export function modelErrorDetail(error: LlmError): string {
  return `${error.kind}${error.status === undefined ? '' : ` ${String(error.status)}`}: ${error.message}`;
}
