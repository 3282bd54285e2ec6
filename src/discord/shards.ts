/** Which shard Discord sends a guild's events to: `(guild_id >> 22) % num_shards` (Discord's documented formula). */
export function shardOfGuild(guildId: string, shardCount: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(shardCount));
}

/** The shards one process serves, out of every shard of the bot. */
export interface ShardSet {
  readonly ids: readonly number[];
  readonly count: number;
}

/** The whole bot in one process. */
export const ALL_IN_ONE: ShardSet = { ids: [0], count: 1 };

/** Whether a guild's games belong to this process: its events arrive here, so its games are run here. */
export function ownsGuild(shards: ShardSet, guildId: string | null): boolean {
  // A game without a guild cannot come from Discord; shard 0 takes it, as it takes everything without one.
  const shard = guildId ? shardOfGuild(guildId, shards.count) : 0;
  return shards.ids.includes(shard);
}
