import { ApplicationIntegrationType, InteractionContextType, SlashCommandBuilder, type SlashCommandStringOption } from 'discord.js';
import { SITUATION_MAX_CHARS } from '../../agents/player/answer-situation.ts';
import { PROFILE_LIMITS } from '../../persona/profile.ts';

export const PERSONA = 'persona';

/** Discord's limit on a string option; longer biographies go through the modal or a file. */
const TEXT_OPTION_MAX = 6000;

const personaOption = (what: string) => (o: SlashCommandStringOption) =>
  o.setName('persona').setDescription(what).setRequired(true).setAutocomplete(true).setMaxLength(100);

const scopeOption = (o: SlashCommandStringOption) =>
  o
    .setName('scope')
    .setDescription('Who may use it (default: only you)')
    .addChoices(
      { name: 'private: only you', value: 'private' },
      { name: 'server: everyone here (Manage Server edits it)', value: 'server' },
    );

/**
 * /persona. `edit` belongs to the editor chat (issue #6) and is defined there. Usable in DMs:
 * private personas live there too.
 */
export const personaCommand = new SlashCommandBuilder()
  .setName(PERSONA)
  .setDescription('Create, share and try out the AI personas that play Mafia')
  .setContexts(InteractionContextType.Guild, InteractionContextType.BotDM)
  .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
  .addSubcommand((s) =>
    s
      .setName('create')
      .setDescription('A persona from a name and a biography (without text or file, a form opens)')
      .addStringOption((o) => o.setName('name').setDescription('Who it is').setRequired(true).setMaxLength(PROFILE_LIMITS.name.max))
      .addStringOption((o) =>
        o.setName('text').setDescription('The biography (longer: leave empty for a form, or attach a file)').setMaxLength(TEXT_OPTION_MAX),
      )
      .addAttachmentOption((o) => o.setName('file').setDescription('The biography as a .txt or .md file'))
      .addStringOption(scopeOption),
  )
  .addSubcommand((s) => s.setName('show').setDescription('A persona in full').addStringOption(personaOption('Which persona')))
  .addSubcommand((s) =>
    s
      .setName('list')
      .setDescription('The personas you can use: yours, this server’s, the built-in ones')
      .addIntegerOption((o) => o.setName('page').setDescription('Page number').setMinValue(1).setMaxValue(1000)),
  )
  .addSubcommand((s) =>
    s
      .setName('duplicate')
      .setDescription('An editable copy of a persona (the way to change a built-in one)')
      .addStringOption(personaOption('Which persona to copy'))
      .addStringOption((o) =>
        o.setName('name').setDescription('Name of the copy (default: "<name> (copy)")').setMaxLength(PROFILE_LIMITS.name.max),
      )
      .addStringOption(scopeOption),
  )
  .addSubcommand((s) =>
    s.setName('delete').setDescription('Delete a persona you may edit (asks first)').addStringOption(personaOption('Which persona')),
  )
  .addSubcommand((s) =>
    s
      .setName('import')
      .setDescription('A persona from a Dramatis .json export or a Character Card (V2/V3, .json or .png)')
      .addAttachmentOption((o) => o.setName('file').setDescription('The persona or card file').setRequired(true))
      .addStringOption(scopeOption),
  )
  .addSubcommand((s) =>
    s
      .setName('export')
      .setDescription('A persona as files: Dramatis JSON and a Character Card')
      .addStringOption(personaOption('Which persona'))
      .addStringOption((o) =>
        o
          .setName('format')
          .setDescription('Which files (default: Dramatis JSON and card PNG)')
          .addChoices(
            { name: 'Dramatis JSON and Character Card PNG', value: 'both' },
            { name: 'Dramatis JSON', value: 'json' },
            { name: 'Character Card V2 (PNG)', value: 'card-png' },
            { name: 'Character Card V2 (JSON)', value: 'card-json' },
          ),
      ),
  )
  .addSubcommand((s) =>
    s
      .setName('test')
      .setDescription('The persona answers a situation you describe, in character (without one, a form opens)')
      .addStringOption(personaOption('Which persona'))
      .addStringOption((o) =>
        o.setName('situation').setDescription('e.g. "Bob accuses you of being Mafia"').setMaxLength(SITUATION_MAX_CHARS),
      ),
  )
  .addSubcommand((s) =>
    s
      .setName('edit')
      .setDescription('Chat with the editor agent about a persona you may edit (opens a private thread)')
      .addStringOption(personaOption('Which persona')),
  )
  .addSubcommand((s) =>
    s.setName('chat-clear').setDescription('In an editor thread: start a new conversation (the persona keeps its changes)'),
  )
  .addSubcommand((s) => s.setName('chat-history').setDescription('In an editor thread: every turn of this conversation'));
