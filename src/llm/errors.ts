import type Anthropic from '@anthropic-ai/sdk';
import type { APIError as AnthropicApiError } from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import type { APIError as OpenAiApiError } from 'openai';
import type { LlmError, LlmErrorKind } from './types.ts';

/**
 * The SDK a call went through, as its provider loaded it. Both SDKs share one error design (same
 * class names, `status` on API errors), but each has its own classes.
 */
export type CallingSdk =
  { readonly name: 'openai'; readonly sdk: typeof OpenAI } | { readonly name: 'anthropic'; readonly sdk: typeof Anthropic };

/** What a provider call threw, after the SDK's own retries, as an `LlmError`. */
export function toLlmError(error: unknown, from: CallingSdk, signal?: AbortSignal): LlmError {
  const { sdk } = from;
  const message = error instanceof Error ? error.message : String(error);
  // Checked first: an abort can surface as any of several errors depending on where it hit.
  if (signal?.aborted || error instanceof sdk.APIUserAbortError) return { kind: 'aborted', message: 'the call was aborted' };
  if (error instanceof sdk.APIConnectionTimeoutError) return { kind: 'timeout', message };
  if (error instanceof sdk.APIConnectionError) return { kind: 'network', message };
  if (error instanceof sdk.APIError) {
    // instanceof leaves the classes' type parameters at any: this reads them at their declared defaults.
    const api: OpenAiApiError | AnthropicApiError = error;
    // Errors sent inside a stream (an SSE `error` event) carry no HTTP status.
    if (api.status === undefined) return { kind: kindOfStreamError(api.type ?? ''), message };
    const headers = api.headers instanceof Headers ? api.headers : undefined;
    const retryAfterMs = retryAfterOf(headers);
    const should = headers?.get('x-should-retry');
    return {
      kind: modelUnavailable(api, from.name) ? 'model_unavailable' : kindOfStatus(api.status),
      message,
      status: api.status,
      ...(retryAfterMs !== undefined && { retryAfterMs }),
      ...(should === 'true' || should === 'false' ? { shouldRetry: should === 'true' } : {}),
    };
  }
  if (connectionLost(error)) return { kind: 'network', message };
  // A 200 whose body is not the JSON the SDK expects (SyntaxError), or an SDK complaint about
  // the shape of a stream (OpenAIError, AnthropicError): the server answered, but not usefully.
  return { kind: 'bad_response', message };
}

const SOCKET_CODES = new Set(['UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNRESET', 'EPIPE']);

/**
 * A connection cut while the body was read (fetch's "terminated", a socket error), so after
 * the SDK's connection checks: the Anthropic SDK wraps it in an AnthropicError, OpenAI's lets
 * fetch's TypeError through. Either way it is in the cause chain.
 */
function connectionLost(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof TypeError && e.message === 'terminated') return true;
    const code = 'code' in e ? e.code : undefined;
    if (typeof code === 'string' && SOCKET_CODES.has(code)) return true;
  }
  return false;
}

/** `retry-after-ms`, else `retry-after` in seconds or as a date, as the SDKs read them. */
function retryAfterOf(headers: Headers | undefined, now = Date.now()): number | undefined {
  const ms = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers?.get('retry-after');
  if (!raw) return undefined;
  const seconds = Number.parseFloat(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * A 404 naming the model: OpenAI says `model_not_found` (an unknown id, a retired one, or one the
 * key may not use), Anthropic a `not_found_error` (its Messages endpoint has nothing else to miss).
 */
function modelUnavailable(api: OpenAiApiError | AnthropicApiError, sdk: CallingSdk['name']): boolean {
  if (api.status !== 404) return false;
  return sdk === 'openai' ? 'code' in api && api.code === 'model_not_found' : api.type === 'not_found_error';
}

function kindOfStatus(status: number): LlmErrorKind {
  if (status === 429) return 'rate_limited';
  if (status === 401 || status === 403) return 'auth';
  if (status === 408) return 'timeout';
  if (status >= 500) return 'server';
  if (status >= 400) return 'bad_request';
  return 'bad_response';
}

/** Anthropic streams `overloaded_error`, `rate_limit_error`, `api_error` … as events mid-stream. */
function kindOfStreamError(type: string): LlmErrorKind {
  if (type.includes('rate_limit')) return 'rate_limited';
  if (type.includes('overloaded') || type.includes('api_error') || type.includes('server_error')) return 'server';
  return 'bad_response';
}
