import { createHash } from 'node:crypto';

/**
 * What a fake model draws at random, drawn from the request itself: the same request always gets
 * the same latency and the same answer, whatever else is in flight and in whatever order the
 * requests arrive. The model id and the cache markers are left out, so models that differ only in
 * price, and cache lifetimes, play the same game.
 */
export function requestSeed(body: Record<string, unknown>): number {
  const { model: _model, ...rest } = body;
  const text = JSON.stringify(rest, (key, value: unknown) => (key === 'cache_control' ? undefined : value));
  return createHash('sha256').update(text).digest().readUInt32BE(0);
}

/** A uniform in [0, 1) from a request's seed, one independent draw per `salt`. */
export function unitOf(seed: number, salt: number): number {
  // One round of mulberry32 on the seed mixed with the salt: cheap, and well spread for nearby inputs.
  let t = (seed + Math.imul(salt + 1, 0x6d2b79f5)) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
