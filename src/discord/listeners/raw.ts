import type { ShardRelay } from '../shard-relay.ts';

/** raw: every gateway packet, before discord.js makes an event of it; the shard relay keeps the DMs it may hand to another shard. */
export function onRaw(relay: ShardRelay) {
  return (packet: unknown): void => relay.keep(packet);
}
