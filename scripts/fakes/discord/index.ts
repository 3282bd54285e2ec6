/** The Discord simulator: a loopback fake of Discord's REST API and gateway for the real discord.js client. */
export { startDiscordSim, DiscordSim, messageText, isEphemeral } from './sim.ts';
export type { SimOptions, GuildSpec, MemberSpec, ChannelSpec, ChannelRef } from './sim.ts';
export { loginBot, simClientOptions, BOT_INTENTS, BOT_PARTIALS } from './client.ts';
export { SimUser, SimUserError } from './users.ts';
export type { SlashInput, FileInput, OptionValue, MessageRef } from './users.ts';
export { InteractionHandle } from './handle.ts';
export type { SimInteraction, InteractionCallback } from './interactions.ts';
export type { SimMessage, SimChannel, SimGuild, SimWebhook, RestCall, SimAttachment } from './model.ts';
export { LIMITS } from './limits.ts';
export { BOT_DEFAULT, EVERYONE_DEFAULT, P as Permissions } from './permissions.ts';
export { DiscordHttpError } from './errors.ts';
