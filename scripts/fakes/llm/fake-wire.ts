import type { CachePrompt } from './fake-cache.ts';
import type { FakeMessage, FakeRequest, FakeTurn, FakeUsage } from './fake-script.ts';
import type { CallUsage } from './fake-usage.ts';

/** What a provider's fake supplies to the server (a `Dialect`), and helpers for writing one. */

export type RequestView = Omit<FakeRequest, 'index' | 'at' | 'arrivedAt' | 'seed' | 'path' | 'headers' | 'body'>;

/** A provider's wire format. */
export interface Dialect {
  readonly name: string;
  /** The provider as the model table names it: which row's token ratio counts this wire's output. */
  readonly provider: 'anthropic' | 'openai';
  /** Path of the SDK's base URL on this server ('' or '/v1'). */
  readonly basePath: string;
  readonly endpoint: string;
  describe(body: Record<string, unknown>): RequestView;
  /** Why the real API would refuse this body with a 400 before any reply is scripted, or undefined. */
  refuse(body: Record<string, unknown>): string | FakeRefusal | undefined;
  /** The request as the provider's prompt cache sees it. */
  prompt(body: Record<string, unknown>): CachePrompt;
  /** The texts a reply sends back (text, tool arguments, structured JSON): its output tokens. */
  sent(message: FakeMessage, request: FakeRequest): string[];
  /** Tokens the model thinks before a reply whose visible part is `answerTokens` (billed as output), or undefined when it reports none. */
  thinking?(message: FakeMessage, request: FakeRequest, answerTokens: number): number | undefined;
  /** A scripted `usage`, read in this wire's terms (OpenAI's `input` is every prompt token, Anthropic's the uncached ones). */
  scripted(usage: FakeUsage): CallUsage;
  json(message: FakeMessage, request: FakeRequest, usage: CallUsage): unknown;
  /** Server-sent events, each a complete `event:`/`data:` block ending in a blank line. */
  events(message: FakeMessage, request: FakeRequest, usage: CallUsage): string[];
  errorBody(status: number, message: string, param?: string): unknown;
  /** A stream event whose data is not JSON. */
  readonly malformedEvent: string;
}

/** A 400 with the request field it names (OpenAI's `param`). */
interface FakeRefusal {
  readonly message: string;
  readonly param?: string;
}

/** Splits text into small pieces, as a model streams tokens (each keeps its trailing space). */
export function pieces(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

/** Splits a string into `n` roughly equal fragments (for streamed JSON arguments). */
export function fragments(text: string, n = 3): string[] {
  const size = Math.max(1, Math.ceil(text.length / n));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length > 0 ? out : [''];
}

export function sse(data: unknown, event?: string): string {
  return `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;
}

/** Text of a content that is a string or an array of `{ type: 'text', text }` parts. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) => (isRecord(part) && part['type'] === 'text' && typeof part['text'] === 'string' ? part['text'] : ''))
    .filter((text) => text !== '')
    .join('\n\n');
}

/** A wire field as text: '' when absent, an object as its JSON (never '[object Object]'). */
export function stringOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return value === undefined || value === null ? '' : JSON.stringify(value);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseJsonOr(text: string, fallback: unknown): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
}

/** The turns at the end of the transcript in `role`, in order. */
export function tail<T extends FakeTurn>(turns: readonly T[], role: FakeTurn['role']): T[] {
  return turns.slice(turns.findLastIndex((turn) => turn.role !== role) + 1);
}
