import {
  MessageFlags,
  type AutocompleteInteraction,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type ModalSubmitInteraction,
  type RepliableInteraction,
  type SlashCommandSubcommandBuilder,
  type StringSelectMenuInteraction,
} from 'discord.js';
import type { Found, Precondition } from './precondition.ts';

/** How a command tells the person why nothing happened: only they see it. */
export type Refuse = (i: RepliableInteraction, message: string) => Promise<void>;

/** A handler as a module declares it: its preconditions, and what runs once all of them passed. */
interface Declared<I, Deps, Ps extends readonly unknown[]> {
  readonly preconditions: Ps;
  /** Acknowledge ephemerally before the preconditions: their lookups may wait behind a game's other work (Discord's 3 s). */
  readonly deferFirst?: boolean;
  readonly run: (i: I, found: Found<I, { readonly deps: Deps }, Ps>) => Promise<void>;
}

/** Any precondition a handler of interaction I may declare. */
type AnyPrecondition<I> = Precondition<I, never, object>;

/** A /command subcommand: its definition, and the handler the router calls (preconditions first). */
export interface Subcommand<Deps> {
  readonly name: string;
  /** Description and options; the name is set from `name`. */
  readonly definition: (s: SlashCommandSubcommandBuilder) => SlashCommandSubcommandBuilder;
  readonly autocomplete?: (i: AutocompleteInteraction, deps: Deps) => Promise<void>;
  readonly handle: (i: ChatInputCommandInteraction, deps: Deps) => Promise<void>;
}

/** A button, select menu or modal, by the custom-id prefix it answers (for the lobby's buttons, the action after `lobby:`). */
export interface Component<I, Deps> {
  readonly id: string;
  readonly handle: (i: I, deps: Deps) => Promise<void>;
}

/**
 * The one place preconditions are checked: in the order declared, each given what the earlier
 * ones found; the first that fails is the person's refusal and the handler does not run.
 */
async function runChecked<I extends RepliableInteraction, Deps, Ps extends readonly AnyPrecondition<I>[]>(
  handler: Declared<I, Deps, Ps>,
  i: I,
  deps: Deps,
  refuse: Refuse,
): Promise<void> {
  if (handler.deferFirst) await i.deferReply({ flags: MessageFlags.Ephemeral });
  let found: object = { deps };
  // `Found` checked, where the handler was declared, that each precondition gets what it reads.
  for (const check of handler.preconditions) {
    const passed = await check(i, found as never);
    if (!passed.ok) return refuse(i, passed.error);
    found = { ...found, ...passed.value };
  }
  await handler.run(i, found as Found<I, { readonly deps: Deps }, Ps>);
}

/** The declarations of one command's handlers, sharing its dependencies and its way of refusing. */
export function handlersOf<Deps>(refuse: Refuse) {
  return {
    subcommand<const Ps extends readonly AnyPrecondition<ChatInputCommandInteraction>[]>(
      m: Omit<Subcommand<Deps>, 'handle'> & Declared<ChatInputCommandInteraction, Deps, Ps>,
    ): Subcommand<Deps> {
      return {
        name: m.name,
        definition: m.definition,
        ...(m.autocomplete && { autocomplete: m.autocomplete }),
        handle: (i, deps) => runChecked(m, i, deps, refuse),
      };
    },
    button<const Ps extends readonly AnyPrecondition<ButtonInteraction>[]>(
      m: { readonly id: string } & Declared<ButtonInteraction, Deps, Ps>,
    ): Component<ButtonInteraction, Deps> {
      return { id: m.id, handle: (i, deps) => runChecked(m, i, deps, refuse) };
    },
    select<const Ps extends readonly AnyPrecondition<StringSelectMenuInteraction>[]>(
      m: { readonly id: string } & Declared<StringSelectMenuInteraction, Deps, Ps>,
    ): Component<StringSelectMenuInteraction, Deps> {
      return { id: m.id, handle: (i, deps) => runChecked(m, i, deps, refuse) };
    },
    modal<const Ps extends readonly AnyPrecondition<ModalSubmitInteraction>[]>(
      m: { readonly id: string } & Declared<ModalSubmitInteraction, Deps, Ps>,
    ): Component<ModalSubmitInteraction, Deps> {
      return { id: m.id, handle: (i, deps) => runChecked(m, i, deps, refuse) };
    },
  };
}
