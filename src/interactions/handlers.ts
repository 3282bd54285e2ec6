import { setTimeout as delay } from 'node:timers/promises';
import type {
  AutocompleteInteraction,
  ButtonInteraction,
  ChatInputCommandInteraction,
  ModalSubmitInteraction,
  RepliableInteraction,
  SlashCommandSubcommandBuilder,
  StringSelectMenuInteraction,
} from 'discord.js';
import type { AckStyle, Reply, Responder } from '../discord/responder.ts';
import type { Found, Precondition } from './precondition.ts';

/** Acknowledges the interaction now in the handler's style, unless something was sent already. */
export type Acknowledge = () => Promise<void>;

/** What every handler and precondition starts from: the command's dependencies, and the interaction's answers in the handler's style. */
interface Start<Deps> {
  readonly deps: Deps;
  readonly ack: Acknowledge;
  readonly reply: Reply;
}

const DEFAULT_ACK: AckStyle = 'ephemeral';

/** A handler as a module declares it: its preconditions, and what runs once all of them passed. */
interface Declared<I, Deps, Ps extends readonly unknown[]> {
  readonly preconditions: Ps;
  /** How `ack` acknowledges (default DEFAULT_ACK). */
  readonly ack?: AckStyle;
  /**
   * Acknowledge before the preconditions: they read the database, which may wait behind every
   * game's writes. `if-slow`: only if the handler has not begun its answer within
   * ACK_GRACE_MS (usually it has, and answers in one call instead of two).
   */
  readonly ackFirst?: boolean | 'if-slow';
  readonly run: (i: I, found: Found<I, Start<Deps>, Ps>) => Promise<void>;
}

/** Any precondition a handler of interaction I may declare. */
type AnyPrecondition<I> = Precondition<I, never, object>;

/** A /command subcommand: its definition, and the handler the router calls (preconditions first). */
export interface Subcommand<Deps> {
  readonly name: string;
  /** Description and options; the name is set from `name`. */
  readonly definition: (s: SlashCommandSubcommandBuilder) => SlashCommandSubcommandBuilder;
  readonly autocomplete?: (i: AutocompleteInteraction, deps: Deps) => Promise<void>;
  /** How its handler acknowledges (what the router acknowledges ahead of it when it must, see `InteractionRouter.acknowledge`). */
  readonly ack: AckStyle;
  readonly handle: (i: ChatInputCommandInteraction, deps: Deps, responder: Responder) => Promise<void>;
}

/** A button, select menu or modal, by the custom-id prefix it answers (for the lobby's buttons, the action after `lobby:`). */
export interface Component<I, Deps> {
  readonly id: string;
  /** How its handler acknowledges (what the router acknowledges ahead of it when it must, see `InteractionRouter.acknowledge`). */
  readonly ack: AckStyle;
  readonly handle: (i: I, deps: Deps, responder: Responder) => Promise<void>;
}

/** How long an `ackFirst: 'if-slow'` handler has to begin its answer before it is acknowledged for it (well inside the 200 ms goal). */
const ACK_GRACE_MS = 100;

/** What `work` gives if it is done within ACK_GRACE_MS, else null: then the interaction is acknowledged before it is answered. */
export function withinGrace<T>(work: Promise<T>): Promise<T | null> {
  return Promise.race([work, delay(ACK_GRACE_MS).then(() => null)]);
}

/**
 * The one place preconditions are checked: in the order declared, each given what the earlier
 * ones found; the first that fails is the person's refusal and the handler does not run.
 */
async function runChecked<I extends RepliableInteraction, Deps, Ps extends readonly AnyPrecondition<I>[]>(
  handler: Declared<I, Deps, Ps>,
  i: I,
  deps: Deps,
  responder: Responder,
): Promise<void> {
  const reply = responder.as(handler.ack ?? DEFAULT_ACK);
  const ack: Acknowledge = () => reply.ack();
  if (handler.ackFirst === true) await ack();
  // Acknowledged for the handler only if it has not begun to answer by then.
  const grace =
    handler.ackFirst === 'if-slow'
      ? setTimeout(() => {
          if (!reply.begun()) ack().catch(() => undefined);
        }, ACK_GRACE_MS)
      : undefined;
  try {
    let found: object = { deps, ack, reply };
    // `Found` checked, where the handler was declared, that each precondition gets what it reads.
    for (const check of handler.preconditions) {
      const passed = await check(i, found as never);
      if (!passed.ok) {
        await reply.privately(passed.error);
        return;
      }
      found = { ...found, ...passed.value };
    }
    await handler.run(i, found as Found<I, Start<Deps>, Ps>);
  } finally {
    clearTimeout(grace);
  }
}

/** The declarations of one command's handlers, sharing its dependencies; a precondition's refusal is said privately. */
export function handlersOf<Deps>() {
  return {
    subcommand<const Ps extends readonly AnyPrecondition<ChatInputCommandInteraction>[]>(
      m: Omit<Subcommand<Deps>, 'handle' | 'ack'> & Declared<ChatInputCommandInteraction, Deps, Ps>,
    ): Subcommand<Deps> {
      return {
        name: m.name,
        definition: m.definition,
        ...(m.autocomplete && { autocomplete: m.autocomplete }),
        ack: m.ack ?? DEFAULT_ACK,
        handle: (i, deps, responder) => runChecked(m, i, deps, responder),
      };
    },
    button<const Ps extends readonly AnyPrecondition<ButtonInteraction>[]>(
      m: { readonly id: string } & Declared<ButtonInteraction, Deps, Ps>,
    ): Component<ButtonInteraction, Deps> {
      return { id: m.id, ack: m.ack ?? DEFAULT_ACK, handle: (i, deps, responder) => runChecked(m, i, deps, responder) };
    },
    select<const Ps extends readonly AnyPrecondition<StringSelectMenuInteraction>[]>(
      m: { readonly id: string } & Declared<StringSelectMenuInteraction, Deps, Ps>,
    ): Component<StringSelectMenuInteraction, Deps> {
      return { id: m.id, ack: m.ack ?? DEFAULT_ACK, handle: (i, deps, responder) => runChecked(m, i, deps, responder) };
    },
    modal<const Ps extends readonly AnyPrecondition<ModalSubmitInteraction>[]>(
      m: { readonly id: string } & Declared<ModalSubmitInteraction, Deps, Ps>,
    ): Component<ModalSubmitInteraction, Deps> {
      return { id: m.id, ack: m.ack ?? DEFAULT_ACK, handle: (i, deps, responder) => runChecked(m, i, deps, responder) };
    },
  };
}
