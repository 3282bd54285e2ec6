import type { ApplicationCommandData, Client, RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';

export type CommandData = RESTPostAPIChatInputApplicationCommandsJSONBody;

export type Registration = { readonly changed: false } | { readonly changed: true; readonly reason: string };

/**
 * Makes the registered commands exactly `commands`: GET what Discord has, compare, and PUT the
 * whole set only when something differs, so a restart sends nothing (global commands take time
 * to propagate and PUTs are rate limited). Guild-scoped when `guildId` is given (development).
 */
export async function syncCommands(client: Client<true>, commands: readonly CommandData[], guildId?: string): Promise<Registration> {
  const manager = client.application.commands;
  const existing = guildId ? await manager.fetch({ guildId }) : await manager.fetch();
  const reason = difference(
    [...existing.values()].map((c) => ({ name: c.name, equals: (data: CommandData) => c.equals(asCommandData(data), true) })),
    commands,
  );
  if (reason === null) return { changed: false };
  if (guildId) await manager.set([...commands], guildId);
  else await manager.set([...commands]);
  return { changed: true, reason };
}

function difference(
  existing: readonly { name: string; equals(data: CommandData): boolean }[],
  wanted: readonly CommandData[],
): string | null {
  if (existing.length !== wanted.length) return `${existing.length} registered, ${wanted.length} wanted`;
  for (const data of wanted) {
    const found = existing.find((c) => c.name === data.name);
    if (!found) return `/${data.name} is new`;
    if (!found.equals(data)) return `/${data.name} changed`;
  }
  return null;
}

/**
 * ApplicationCommand#equals reads the builder's JSON (snake_case) as well as discord.js's data shape; only its
 * typing is narrower. Keys the builder leaves undefined are dropped first: `equals` treats a present
 * `nsfw: undefined` as differing from Discord's `false`, which would re-send the commands on every boot.
 */
function asCommandData(data: CommandData): ApplicationCommandData {
  return JSON.parse(JSON.stringify(data)) as ApplicationCommandData;
}
