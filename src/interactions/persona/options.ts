import type { ChatInputCommandInteraction, SlashCommandStringOption } from 'discord.js';
import type { Scope } from '../../persona/persona.ts';

/** The `persona` option of the subcommands that act on one: autocompleted, a name may be typed. */
export const personaOption = (what: string) => (o: SlashCommandStringOption) =>
  o.setName('persona').setDescription(what).setRequired(true).setAutocomplete(true).setMaxLength(100);

/** The `scope` option of the subcommands that make a persona. */
export const scopeOption = (o: SlashCommandStringOption) =>
  o
    .setName('scope')
    .setDescription('Who may use it (default: only you)')
    .addChoices(
      { name: 'private: only you', value: 'private' },
      { name: 'server: everyone here (Manage Server edits it)', value: 'server' },
    );

/** What was picked (an id) or typed (a name) in the `persona` option. */
export function personaValue(i: ChatInputCommandInteraction): string {
  return i.options.getString('persona', true);
}

/** "server" was picked in the `scope` option. */
export function serverScopeAsked(i: ChatInputCommandInteraction): boolean {
  return i.options.getString('scope') === 'server';
}

/** The `scope` picked: private unless "server" was picked (in DMs the `scopeAllowedHere` precondition refused that). */
export function scopeOf(i: ChatInputCommandInteraction): Scope {
  return serverScopeAsked(i) && i.guildId !== null ? { kind: 'server', guildId: i.guildId } : { kind: 'private' };
}
