import { MessageFlags, type BaseMessageOptions, type Message, type ModalBuilder, type RepliableInteraction } from 'discord.js';
import { NO_MENTIONS } from './presenters/format.ts';

/**
 * How a handler acknowledges when it must answer later (Discord fails an interaction not answered
 * within 3 s): a "thinking…" only the person sees, or everyone sees, or for a component a silent
 * update (what changes shows in the message it is on). `none`: the handler answers at once from
 * memory or with a form, which must be the first answer.
 */
export type AckStyle = 'ephemeral' | 'public' | 'update' | 'none';

/** What an answer shows: text, embeds, components, files. */
export type Answer = Pick<BaseMessageOptions, 'content' | 'embeds' | 'components' | 'files' | 'allowedMentions'>;

/** The interaction's answers in one handler's style: what its preconditions and its body use, and nothing else. */
export interface Reply {
  /** Acknowledges in the handler's style, unless something was sent already (the answer then fills it in). */
  ack(): Promise<void>;
  /**
   * The handler's answer: the first reply (private unless the handler is `public`; for an `update`
   * handler of a component, the message the component is on), or the acknowledgement filled in, or
   * the earlier answer replaced.
   */
  answer(body: Answer): Promise<Message | null>;
  /** A word only the person sees, whatever was sent before (refusals, notes). */
  privately(content: string): Promise<void>;
  /** A form as the first answer; false when something was sent already (a form can only come first). */
  modal(form: ModalBuilder): Promise<boolean>;
  /** Whether anything was sent or is on its way. */
  begun(): boolean;
}

/** An acknowledgement Discord holds: a "thinking…" (private or public), or a deferred update. */
export const ACKNOWLEDGEMENTS = ['deferred', 'deferred-public', 'deferred-update'] as const;
export type Acknowledgement = (typeof ACKNOWLEDGEMENTS)[number];

/** What Discord holds of the answer: nothing yet, an acknowledgement, or an answer. */
type Sent = 'nothing' | Acknowledgement | 'answered';

const responders = new WeakMap<RepliableInteraction, Responder>();

/** The one Responder of an interaction: everything sent for it goes through there, in order. */
export function responderOf(i: RepliableInteraction): Responder {
  let responder = responders.get(i);
  if (!responder) {
    responder = new Responder(i);
    responders.set(i, responder);
  }
  return responder;
}

/**
 * The one Responder of an interaction that another process acknowledged (sharding: shard 0 defers a
 * DM that belongs to another shard's game, whose process answers it). It goes on from that
 * acknowledgement, and discord.js is told of it too, so the answer edits it or follows up through
 * the interaction's webhook, which its token opens from any process for 15 minutes.
 */
export function responderAfter(i: RepliableInteraction, acknowledged: Acknowledgement): Responder {
  i.deferred = true;
  if (acknowledged !== 'deferred-update') i.ephemeral = acknowledged === 'deferred';
  const responder = new Responder(i, acknowledged);
  responders.set(i, responder);
  return responder;
}

/**
 * The one way an interaction is answered. Discord takes one first answer (a reply, a deferral, an
 * update or a form) within 3 s, then edits and follow-ups. Whatever a precondition, a handler or the
 * router sends goes out here, one call after the other, and each call picks its REST call from what
 * was sent before: an answer after a deferral fills it in, a refusal after a public "thinking…"
 * takes it back and follows up privately. So "already deferred" cannot collide with "reply".
 */
export class Responder {
  private started: boolean;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly i: RepliableInteraction,
    private sent: Sent = 'nothing',
  ) {
    this.started = sent !== 'nothing';
  }

  /** The answers in a handler's style (see AckStyle). */
  as(style: AckStyle): Reply {
    return {
      ack: () => this.ack(style),
      answer: (body) => this.answer(body, style),
      privately: (content) => this.privately(content),
      modal: (form) => this.modal(form),
      begun: () => this.started,
    };
  }

  /**
   * Acknowledges in `style` unless something was sent already, and says what Discord holds then:
   * what another process answering the interaction goes on from (`responderAfter`); null when that
   * is no acknowledgement (a `none` handler's, or an answer already given).
   */
  async acknowledge(style: AckStyle): Promise<Acknowledgement | null> {
    await this.ack(style);
    return this.sent === 'nothing' || this.sent === 'answered' ? null : this.sent;
  }

  /** Runs after everything sent before; a failure is the caller's (the next call still runs). */
  private send<T>(call: () => Promise<T>): Promise<T> {
    this.started = true;
    const done = this.queue.then(call);
    this.queue = done.catch(() => undefined);
    return done;
  }

  private ack(style: AckStyle): Promise<void> {
    return this.send(async () => {
      const i = this.i;
      if (this.sent !== 'nothing' || style === 'none') return;
      if (style === 'update' && i.isMessageComponent()) {
        await i.deferUpdate();
        this.sent = 'deferred-update';
      } else if (style === 'public') {
        await i.deferReply();
        this.sent = 'deferred-public';
      } else {
        await i.deferReply({ flags: MessageFlags.Ephemeral });
        this.sent = 'deferred';
      }
    });
  }

  private answer(body: Answer, style: AckStyle): Promise<Message | null> {
    return this.send(async () => {
      const i = this.i;
      let message: Message | null;
      if (this.sent !== 'nothing') message = await i.editReply(body);
      else if (style === 'update' && i.isMessageComponent())
        message = (await i.update({ ...body, withResponse: true })).resource?.message ?? null;
      else {
        const flags = style === 'public' ? {} : { flags: MessageFlags.Ephemeral as const };
        message = (await i.reply({ ...body, ...flags, withResponse: true })).resource?.message ?? null;
      }
      this.sent = 'answered';
      return message;
    });
  }

  private privately(content: string): Promise<void> {
    return this.send(async () => {
      const i = this.i;
      const body = { content, allowedMentions: NO_MENTIONS };
      if (this.sent === 'nothing') await i.reply({ ...body, flags: MessageFlags.Ephemeral });
      else if (this.sent === 'deferred') await i.editReply({ ...body, embeds: [], components: [] });
      else {
        // A public "thinking…" would hang there unanswered: it is taken back.
        if (this.sent === 'deferred-public') await i.deleteReply();
        await i.followUp({ ...body, flags: MessageFlags.Ephemeral });
      }
      this.sent = 'answered';
    });
  }

  private modal(form: ModalBuilder): Promise<boolean> {
    return this.send(async () => {
      const i = this.i;
      if (this.sent !== 'nothing' || i.isModalSubmit()) return false;
      await i.showModal(form);
      this.sent = 'answered';
      return true;
    });
  }
}
