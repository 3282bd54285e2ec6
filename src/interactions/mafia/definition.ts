import { ApplicationIntegrationType, InteractionContextType, SlashCommandBuilder } from 'discord.js';
import { MAX_WILL_LENGTH, RulesSchema } from '../../game/index.ts';

/** Limits of the timing options come from the engine's schema, so Discord refuses what the engine would. */
function bounds(key: 'nightSeconds' | 'daySeconds' | 'voteSeconds'): { min: number; max: number } {
  const schema = RulesSchema.shape[key].unwrap();
  return { min: schema.minValue ?? 10, max: schema.maxValue ?? 3600 };
}

const night = bounds('nightSeconds');
const day = bounds('daySeconds');
const vote = bounds('voteSeconds');

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
    s
      .setName('create')
      .setDescription('Open a lobby in this channel')
      .addStringOption((o) =>
        o
          .setName('roles')
          .setDescription('Custom roles, e.g. "mafia, detective, doctor, townsperson x2" (default: preset)')
          .setMaxLength(500),
      )
      .addIntegerOption((o) =>
        o.setName('night-seconds').setDescription('Length of a night (default 90)').setMinValue(night.min).setMaxValue(night.max),
      )
      .addIntegerOption((o) =>
        o.setName('day-seconds').setDescription('Length of a day (default 300)').setMinValue(day.min).setMaxValue(day.max),
      )
      .addIntegerOption((o) =>
        o.setName('vote-seconds').setDescription('Length of a vote (default 90)').setMinValue(vote.min).setMaxValue(vote.max),
      )
      .addStringOption((o) =>
        o
          .setName('vote-mode')
          .setDescription('How a lynch is decided (default plurality)')
          .addChoices(
            { name: 'plurality: most votes lynches', value: 'plurality' },
            { name: 'majority: more than half of the living', value: 'majority' },
          ),
      )
      .addBooleanOption((o) => o.setName('doctor-self-protect').setDescription('The Doctor may protect themself (default on)'))
      .addBooleanOption((o) =>
        o.setName('doctor-repeat-protect').setDescription('The Doctor may protect the same player twice in a row (default off)'),
      )
      .addBooleanOption((o) => o.setName('reveal-roles').setDescription("A dead player's role is announced (default on)"))
      .addBooleanOption((o) => o.setName('no-lynch').setDescription('Players may vote to lynch nobody (default on)'))
      .addBooleanOption((o) => o.setName('last-wills').setDescription('Players may write a will (default on)'))
      .addBooleanOption((o) => o.setName('night-one-kill').setDescription('Kills allowed on the first night (default on)'))
      .addIntegerOption((o) =>
        o.setName('vigilante-shots').setDescription('Shots a Vigilante has (default 1)').setMinValue(1).setMaxValue(5),
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
