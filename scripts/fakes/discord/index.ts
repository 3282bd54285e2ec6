/** The Discord simulator: a loopback fake of Discord's REST API and gateway for the real discord.js client. */
export { startDiscordSim, DiscordSim } from './sim.ts';
export { messageText, isEphemeral } from './message-text.ts';
export type { GuildSpec, MemberSpec } from './world-building.ts';
export { loginBot, simClientOptions } from './client.ts';
export { SimUser, SimUserError } from './users.ts';
export type { OptionValue } from './slash-options.ts';
export { InteractionHandle } from './handle.ts';
export type { SimMessage } from './model.ts';
export { LIMITS } from './limits.ts';
export { P as Permissions } from './permissions.ts';
