/** The Discord simulator: a loopback fake of Discord's REST API and gateway for the real discord.js client. */
export { startDiscordSim, DiscordSim, messageText, isEphemeral } from './sim.ts';
export type { GuildSpec, MemberSpec } from './sim.ts';
export { loginBot, simClientOptions } from './client.ts';
export { SimUser, SimUserError } from './users.ts';
export type { OptionValue } from './users.ts';
export { InteractionHandle } from './handle.ts';
export type { SimMessage } from './model.ts';
export { LIMITS } from './limits.ts';
export { P as Permissions } from './permissions.ts';
