import { ApplicationIntegrationType, InteractionContextType, SlashCommandBuilder } from 'discord.js';
import { MAX_WILL_LENGTH } from '../../game/index.ts';
import { addRuleOptions } from './rule-options.ts';

/**
 * /mafia. Offered in DMs too (contexts Guild + BotDM): `rules` works there, and the subcommands
 * that need a server (every other, `will` and `stats` included) say so instead of vanishing from the menu.
 */
export const mafiaCommand = new SlashCommandBuilder()
  .setName('mafia')
  .setDescription('Play Mafia with people and AI personas')
  .setContexts(InteractionContextType.Guild, InteractionContextType.BotDM)
  .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
  .addSubcommand((s) =>
    addRuleOptions(
      s
        .setName('create')
        .setDescription('Open a lobby in this channel')
        .addStringOption((o) =>
          o
            .setName('roles')
            .setDescription('Custom roles, e.g. "mafia, detective, doctor, townsperson x2" (default: preset)')
            .setMaxLength(500),
        ),
    ),
  )
  .addSubcommand((s) =>
    s
      .setName('add-ai')
      .setDescription('Seat an AI persona in the lobby (host)')
      .addStringOption((o) => o.setName('persona').setDescription('Who plays').setRequired(true).setAutocomplete(true).setMaxLength(100)),
  )
  .addSubcommand((s) =>
    s
      .setName('remove')
      .setDescription('Remove a player from the lobby (host)')
      .addStringOption((o) => o.setName('player').setDescription('Who leaves').setRequired(true).setAutocomplete(true).setMaxLength(100)),
  )
  .addSubcommand((s) => s.setName('start').setDescription('Deal the roles and begin (host)'))
  .addSubcommand((s) => s.setName('status').setDescription('The game in this channel: phase, deadline, who is alive'))
  .addSubcommand((s) => s.setName('end').setDescription('Stop the game in this channel (host or Manage Server)'))
  .addSubcommand((s) => s.setName('rules').setDescription("This channel's game rules, or the defaults"))
  .addSubcommand((s) =>
    s
      .setName('will')
      .setDescription('Write or replace your last will, read out when you die (a form opens without text)')
      .addStringOption((o) => o.setName('text').setDescription('Your will').setMaxLength(MAX_WILL_LENGTH)),
  )
  .addSubcommand((s) =>
    s
      .setName('stats')
      .setDescription("A player's record in this server (yours by default) and the server's")
      .addUserOption((o) => o.setName('user').setDescription('Whose record')),
  );

export const MAFIA = 'mafia';
