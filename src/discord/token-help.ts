/** What `npm start` prints when DISCORD_TOKEN is missing: every step, in order, so nobody has to search. */
export const MISSING_TOKEN_MESSAGE = `DISCORD_TOKEN is not set, so the bot cannot log in to Discord.

How to get one:
  1. Open the Discord Developer Portal: https://discord.com/developers/applications
  2. New Application (or pick yours) → Bot → Reset Token → copy the token (it is shown once).
  3. On the same Bot page, under Privileged Gateway Intents, enable "Message Content Intent"
     (the bot reads day chat into the game's transcript).
  4. Invite the bot: OAuth2 → URL Generator → scopes "bot" and "applications.commands";
     bot permissions: View Channels, Send Messages, Send Messages in Threads,
     Create Private Threads, Manage Threads, Manage Webhooks, Embed Links, Attach Files,
     Read Message History, Manage Roles (to mute the dead). Open the generated URL.

Then put it in .env (copy .env.example if you have none):
  DISCORD_TOKEN=your-token-here
  DEV_GUILD_ID=your-server-id   # optional: commands appear instantly in that one server

and run npm start again.`;
