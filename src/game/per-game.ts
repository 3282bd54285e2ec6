import type { GameEvent } from './events.ts';

/**
 * What a module has worked out about one game, kept as long as the game lives: it hangs on the
 * game's first event (every state and view of a game holds that same object) under the caller's
 * own symbol, not enumerable, so JSON, spreads and equality never see it. Not a WeakMap keyed by
 * that event: per-game caches kept in WeakMaps survived V8's young-generation collections (an
 * offline game bench's scavenges took ~5 ms and promoted ~400 KB each, against ~0.5 ms and almost
 * nothing hung on the event). An event that cannot take it (frozen) gets a fresh value each time.
 */
export function perGame<T>(first: GameEvent, slot: symbol, make: () => T): T {
  const held = (first as unknown as Record<symbol, T | undefined>)[slot];
  if (held !== undefined) return held;
  const value = make();
  if (Object.isExtensible(first)) Object.defineProperty(first, slot, { value });
  return value;
}
