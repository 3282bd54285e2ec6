import type { ButtonInteraction, ModalSubmitInteraction, SlashCommandBuilder, StringSelectMenuInteraction } from 'discord.js';
import type { CommandData } from '../discord/register.ts';
import type { InteractionRouter } from '../discord/router.ts';
import type { Component, Subcommand } from './handlers.ts';

/** Everything one command answers. */
export interface CommandHandlers<Deps> {
  readonly subcommands: readonly Subcommand<Deps>[];
  readonly buttons?: readonly Component<ButtonInteraction, Deps>[];
  readonly selects?: readonly Component<StringSelectMenuInteraction, Deps>[];
  readonly modals?: readonly Component<ModalSubmitInteraction, Deps>[];
}

/** The command as registered with Discord: its top level, then each subcommand module's definition, in order. */
export function commandData(command: SlashCommandBuilder, subcommands: readonly Subcommand<never>[]): CommandData {
  for (const sub of subcommands) command.addSubcommand((s) => sub.definition(s.setName(sub.name)));
  return command.toJSON();
}

/** Routes the command's subcommands, their autocomplete and its components to their modules. */
export function routeCommand<Deps>(router: InteractionRouter, command: string, deps: Deps, handlers: CommandHandlers<Deps>): void {
  for (const sub of handlers.subcommands) {
    router.onSlash(command, sub.name, (i, responder) => sub.handle(i, deps, responder), sub.ack);
    const autocomplete = sub.autocomplete;
    if (autocomplete) router.onAutocomplete(command, sub.name, (i) => autocomplete(i, deps));
  }
  for (const button of handlers.buttons ?? []) router.onButton(button.id, (i, responder) => button.handle(i, deps, responder), button.ack);
  for (const select of handlers.selects ?? []) router.onSelect(select.id, (i, responder) => select.handle(i, deps, responder), select.ack);
  for (const modal of handlers.modals ?? []) router.onModal(modal.id, (i, responder) => modal.handle(i, deps, responder), modal.ack);
}
