import { cacheMinTokensOf, tokenRatioOf, FIVE_MINUTES_MS, ONE_HOUR_MS, type CachePrompt, type PromptBlock } from './fake-cache.ts';
import { isRecord } from './fake-wire.ts';

/** The Messages API refuses a request with more `cache_control` markers than this. */
const MAX_BREAKPOINTS = 4;

/**
 * A Messages request as Anthropic's prompt cache sees it: blocks in the order the API renders
 * them (tools, then system, then messages), each the JSON the SDK sent without its
 * `cache_control`, and a breakpoint wherever a marker was. Fields that do not reach the model
 * (model, max_tokens, stream, temperature, tool_choice, metadata …) are left out; the model scopes the cache
 * and sets its minimum.
 */
export function anthropicPrompt(body: Record<string, unknown>): CachePrompt {
  const blocks: PromptBlock[] = [];
  // A structured output format is documented to invalidate the cache when it changes: first bytes.
  const format = isRecord(body['output_config']) ? body['output_config']['format'] : undefined;
  if (format !== undefined && format !== null) blocks.push({ text: serialize(format) });
  const cacheable = blocks.length;
  for (const tool of list(body['tools'])) blocks.push(block(tool));
  const system = body['system'];
  if (typeof system === 'string') blocks.push({ text: serialize(system) });
  else for (const part of list(system)) blocks.push(block(part));
  for (const message of list(body['messages']).filter(isRecord)) {
    const role = serialize(message['role']);
    const content = message['content'];
    // The role opens the message's first block, so the same words from another speaker differ.
    if (typeof content === 'string') blocks.push({ text: role + serialize(content) });
    else list(content).forEach((part, i) => blocks.push(block(part, i === 0 ? role : '')));
  }
  // Top-level `cache_control` (automatic caching) marks the last cacheable block.
  const auto = body['cache_control'];
  const last = blocks.length - 1;
  const lastBlock = blocks[last];
  if (isRecord(auto) && lastBlock !== undefined && last >= cacheable && lastBlock.breakpointTtlMs === undefined) {
    blocks[last] = { ...lastBlock, breakpointTtlMs: ttlOf(auto) };
  }
  return {
    mode: 'breakpoints',
    scope: JSON.stringify([body['model']]),
    blocks,
    minTokens: cacheMinTokensOf('anthropic', body['model']),
    tokenRatio: tokenRatioOf('anthropic', body['model']),
  };
}

/** Why the real API would refuse the request's cache markers (400), or undefined. */
export function breakpointProblem(body: Record<string, unknown>): string | undefined {
  const parts = [...list(body['tools']), ...list(body['system'])];
  for (const message of list(body['messages']).filter(isRecord)) parts.push(...list(message['content']));
  const markers = parts.flatMap(markersOf);
  const found = markers.length + (isRecord(body['cache_control']) ? 1 : 0);
  if (found > MAX_BREAKPOINTS) return `A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${found}.`;
  // Documented: a longer-lived breakpoint may not follow a shorter-lived one (tools, then system, then messages).
  const ttls = markers.map(ttlOf);
  const late = ttls.findIndex((ttl, i) => i > 0 && ttl > Math.min(...ttls.slice(0, i)));
  return late < 0
    ? undefined
    : `cache_control with ttl '1h' must come before any with ttl '5m' (breakpoint ${late + 1} of ${ttls.length}).`;
}

function block(part: unknown, opening = ''): PromptBlock {
  const markers = markersOf(part);
  const text = opening + serialize(part);
  return markers.length === 0 ? { text } : { text, breakpointTtlMs: Math.max(...markers.map(ttlOf)) };
}

/** The block's own marker and those of the blocks inside it (a tool_result's content). */
function markersOf(part: unknown): Record<string, unknown>[] {
  if (!isRecord(part)) return [];
  const own = isMarker(part['cache_control']) ? [part['cache_control']] : [];
  return [...own, ...list(part['content']).flatMap(markersOf)];
}

function ttlOf(marker: Record<string, unknown>): number {
  return marker['ttl'] === '1h' ? ONE_HOUR_MS : FIVE_MINUTES_MS;
}

function isMarker(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && value['type'] === 'ephemeral';
}

/** JSON as sent, without cache markers (a schema property that happens to be named cache_control stays); '' for a missing field. */
function serialize(value: unknown): string {
  if (value === undefined) return '';
  return JSON.stringify(value, (key, inner: unknown) => (key === 'cache_control' && isMarker(inner) ? undefined : inner));
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
