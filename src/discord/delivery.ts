import { DiscordAPIError, PermissionsBitField, type GuildTextBasedChannel, type PermissionsString } from 'discord.js';

/** Discord's JSON error codes the output tells apart. */
const UNKNOWN_CHANNEL = 10003;
const CANNOT_DM_USER = 50007;

/** Why one message did not go out. 5xx and network faults arrive here only after discord.js's own retries. */
export type SendProblem =
  { kind: 'forbidden' } | { kind: 'dms_closed' } | { kind: 'channel_gone' } | { kind: 'not_found' } | { kind: 'failed'; detail: string };

export function sendProblem(error: unknown): SendProblem {
  if (error instanceof DiscordAPIError) {
    if (error.code === CANNOT_DM_USER) return { kind: 'dms_closed' };
    if (error.status === 403) return { kind: 'forbidden' };
    if (error.code === UNKNOWN_CHANNEL) return { kind: 'channel_gone' };
    if (error.status === 404) return { kind: 'not_found' };
    return { kind: 'failed', detail: `${String(error.status)} ${error.message}` };
  }
  return { kind: 'failed', detail: error instanceof Error ? error.message : String(error) };
}

/** The permissions of `needs` the bot lacks in a channel; all of them when it cannot tell. */
export function missingPermissions(channel: GuildTextBasedChannel | null, needs: readonly PermissionsString[]): PermissionsString[] {
  if (!channel) return [...needs];
  const me = channel.guild.members.me;
  const have = me ? channel.permissionsFor(me) : null;
  const missing = have ? new PermissionsBitField(have).missing([...needs]) : [...needs];
  return missing.length > 0 ? missing : [...needs];
}

/** "Manage Webhooks" from "ManageWebhooks". */
export function permissionName(permission: PermissionsString): string {
  return permission.replace(/([a-z])([A-Z])/g, '$1 $2');
}

/** Problems the host of each game has been told about, so each is said once per game. */
export class ToldOnce {
  private readonly told = new Map<string, Set<string>>();

  /** True the first time this game meets this problem. */
  first(gameId: string, key: string): boolean {
    const seen = this.told.get(gameId) ?? new Set<string>();
    this.told.set(gameId, seen);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  }

  forget(gameId: string): void {
    this.told.delete(gameId);
  }

  /** Games remembered. */
  get size(): number {
    return this.told.size;
  }
}
