import { setTimeout as delay } from 'node:timers/promises';
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
import { NO_MENTIONS } from '../discord/presenters/format.ts';
import type { Found, Precondition } from './precondition.ts';

/** How a command tells the person why nothing happened: only they see it. */
export type Refuse = (i: RepliableInteraction, message: string) => Promise<void>;

/**
 * How a handler acknowledges when it must answer later (Discord fails an interaction not answered
 * within 3 s): a "thinking…" only the person sees, or everyone sees, or for a component a silent
 * update (what changes shows in the message it is on). `none`: the handler answers at once from
 * memory or with a modal, which must be the first answer.
 */
export type AckStyle = 'ephemeral' | 'public' | 'update' | 'none';

/** Acknowledges the interaction now in the handler's style, unless it is already answered. */
export type Acknowledge = () => Promise<void>;

/** What every handler and precondition starts from: the command's dependencies and its way to acknowledge. */
interface Start<Deps> {
  readonly deps: Deps;
  readonly ack: Acknowledge;
}

/** A handler as a module declares it: its preconditions, and what runs once all of them passed. */
interface Declared<I, Deps, Ps extends readonly unknown[]> {
  readonly preconditions: Ps;
  /** How `ack` acknowledges (default `ephemeral`). */
  readonly ack?: AckStyle;
  /**
   * Acknowledge before the preconditions: they read the database, which may wait behind every
   * game's writes. `if-slow`: only if the handler has not begun its answer within
   * ACK_GRACE_MS (usually it has, and answers in one call instead of two); such a handler answers
   * with `tellPrivately`, which waits for an acknowledgement on its way.
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
  readonly handle: (i: ChatInputCommandInteraction, deps: Deps) => Promise<void>;
}

/** A button, select menu or modal, by the custom-id prefix it answers (for the lobby's buttons, the action after `lobby:`). */
export interface Component<I, Deps> {
  readonly id: string;
  readonly handle: (i: I, deps: Deps) => Promise<void>;
}

/** How long an `ackFirst: 'if-slow'` handler has to begin its answer before it is acknowledged for it (well inside the 200 ms goal). */
const ACK_GRACE_MS = 100;

/** What `work` gives if it is done within ACK_GRACE_MS, else null: then the interaction is acknowledged before it is answered. */
export function withinGrace<T>(work: Promise<T>): Promise<T | null> {
  return Promise.race([work, delay(ACK_GRACE_MS).then(() => null)]);
}

/** How each interaction was acknowledged, so a later private word reaches the person the right way. */
const acknowledged = new WeakMap<RepliableInteraction, AckStyle>();
/** Interactions whose first answer is on its way (discord.js marks them only once Discord has it), with that answer. */
const answering = new WeakMap<RepliableInteraction, Promise<unknown>>();

/** Sends the interaction's first answer, marked at once so that no second one can start meanwhile. */
function firstAnswer(i: RepliableInteraction, send: () => Promise<unknown>): Promise<unknown> {
  const sent = send();
  answering.set(i, sent);
  return sent;
}

/** Acknowledges in `style` unless already answered (a silent update only for components; otherwise a private "thinking…"). */
export async function acknowledge(i: RepliableInteraction, style: AckStyle): Promise<void> {
  const under = answering.get(i);
  if (under) {
    await under;
    return;
  }
  if (i.deferred || i.replied || style === 'none') return;
  if (style === 'update' && i.isMessageComponent()) {
    acknowledged.set(i, 'update');
    await firstAnswer(i, () => i.deferUpdate());
    return;
  }
  const kind = style === 'public' ? 'public' : 'ephemeral';
  acknowledged.set(i, kind);
  await firstAnswer(i, () => i.deferReply(kind === 'public' ? {} : { flags: MessageFlags.Ephemeral }));
}

/**
 * A word only the person sees, whatever was answered before: the reply itself, the private
 * "thinking…" filled in, or a private follow-up (after a silent update, or a public "thinking…",
 * which is then taken back so it does not hang there).
 */
export async function tellPrivately(i: RepliableInteraction, content: string): Promise<void> {
  // An acknowledgement on its way (an `if-slow` handler's) is waited for: the word then fills it in.
  await answering.get(i)?.catch(() => undefined);
  const style = acknowledged.get(i) ?? (i.deferred && i.ephemeral === true ? 'ephemeral' : undefined);
  if (!i.deferred && !i.replied) {
    await firstAnswer(i, () => i.reply({ content, flags: MessageFlags.Ephemeral, allowedMentions: NO_MENTIONS }));
    return;
  }
  if (i.deferred && !i.replied && style === 'ephemeral') {
    await i.editReply({ content, allowedMentions: NO_MENTIONS });
    return;
  }
  // A public "thinking…" would hang there unanswered: it is taken back.
  if (i.deferred && !i.replied && style === 'public') await i.deleteReply();
  await i.followUp({ content, flags: MessageFlags.Ephemeral, allowedMentions: NO_MENTIONS });
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
  const ack: Acknowledge = () => acknowledge(i, handler.ack ?? 'ephemeral');
  if (handler.ackFirst === true) await ack();
  // Acknowledged for the handler only if it has not begun to answer by then.
  const grace =
    handler.ackFirst === 'if-slow'
      ? setTimeout(() => {
          if (!answering.has(i) && !i.deferred && !i.replied) ack().catch(() => undefined);
        }, ACK_GRACE_MS)
      : undefined;
  try {
    let found: object = { deps, ack };
    // `Found` checked, where the handler was declared, that each precondition gets what it reads.
    for (const check of handler.preconditions) {
      const passed = await check(i, found as never);
      if (!passed.ok) {
        await refuse(i, passed.error);
        return;
      }
      found = { ...found, ...passed.value };
    }
    await handler.run(i, found as Found<I, Start<Deps>, Ps>);
  } finally {
    clearTimeout(grace);
  }
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
