import { cacheMinTokensOf, tokenRatioOf, type CachePrompt, type PromptBlock } from './fake-cache.ts';
import { isRecord } from './fake-wire.ts';

/**
 * A Chat Completions request as OpenAI's automatic prompt cache sees it: the tools, then the
 * `response_format` (its json_schema is part of the prefix), then the messages, system first, each
 * the JSON the SDK sent. Fields that do not reach the model (model, stream, max_tokens,
 * temperature, tool_choice, prompt_cache_key, metadata …) are left out; the cache is scoped by the
 * model and the `prompt_cache_key` (requests without a key share the keyless scope).
 */
export function openAiPrompt(body: Record<string, unknown>): CachePrompt {
  const blocks: PromptBlock[] = [];
  for (const tool of list(body['tools'])) blocks.push({ text: serialize(tool) });
  if (body['response_format'] !== undefined) blocks.push({ text: serialize(body['response_format']) });
  for (const message of list(body['messages'])) blocks.push({ text: serialize(message) });
  const key = typeof body['prompt_cache_key'] === 'string' ? body['prompt_cache_key'] : null;
  return {
    mode: 'automatic',
    scope: JSON.stringify([body['model'], key]),
    blocks,
    minTokens: cacheMinTokensOf('openai', body['model']),
    tokenRatio: tokenRatioOf('openai', body['model']),
  };
}

/**
 * JSON as sent, without `prompt_cache_breakpoint` markers on content parts (they steer the cache,
 * the model never reads them); '' for a missing field.
 */
function serialize(value: unknown): string {
  if (value === undefined) return '';
  return JSON.stringify(value, (key, inner: unknown) => (key === 'prompt_cache_breakpoint' && isRecord(inner) ? undefined : inner));
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
