/** Interactions: the record of each one the simulated users start, and how the bot's callbacks change the world. */
import { InteractionResponseType, InteractionType, MessageFlags } from 'discord.js';
import type { SimCore } from './core.ts';
import {
  DiscordHttpError,
  FormErrorCollector,
  alreadyAcknowledged,
  invalidForm,
  unknownInteraction,
  unknownMessage,
  unknownWebhook,
} from './errors.ts';
import type { UploadedFile } from './http.ts';
import { validateChoices, validateModal } from './limits.ts';
import type { SimMessage } from './model.ts';
import { apiMessage } from './serialize.ts';

export interface InteractionCallback {
  type: InteractionResponseType;
  data: any;
  at: number;
}

export interface SimInteraction {
  id: string;
  token: string;
  type: InteractionType;
  userId: string;
  channelId: string;
  guildId: string | null;
  /** The `data` sent to the bot. */
  data: any;
  /** The full payload sent over the gateway. */
  payload: Record<string, unknown>;
  /** Components: the message the component is on. */
  sourceMessageId: string | null;
  createdAt: number;
  /** When the gateway sent it to a connected bot (epoch ms), taken just before the frame is written; null when no bot was connected. */
  dispatchedAt: number | null;
  callbacks: InteractionCallback[];
  /** Failed callback attempts (the bot got an error back). */
  rejected: { type: number; status: number; code: number; message: string; at: number }[];
  /** The message @original points at: the reply, the deferred placeholder, or the component's message. */
  originalMessageId: string | null;
  followUpIds: string[];
  /** Deferred updates (6): how many versions the component's message had when the bot deferred, so a wait can tell its own edit from earlier ones. */
  versionsAtDefer: number | null;
}

const INTERACTION_TOKEN_TTL_MS = 15 * 60 * 1000;

export class Interactions {
  readonly all = new Map<string, SimInteraction>();
  readonly byToken = new Map<string, SimInteraction>();
  /** Max time between the interaction and its first callback (Discord: 3 s). */
  ackTimeoutMs = 3000;

  constructor(private readonly core: SimCore) {}

  add(i: SimInteraction): void {
    this.all.set(i.id, i);
    this.byToken.set(i.token, i);
  }

  /**
   * As if `ms` more had passed since the interaction was created: the 3 s for its first callback and
   * its token's 15 minutes count from then. A test ages an interaction instead of waiting.
   */
  age(id: string, ms: number): void {
    const i = this.all.get(id);
    if (!i) throw new Error(`no interaction ${id}`);
    i.createdAt -= ms;
  }

  private messageOf(i: SimInteraction, id: string | null): SimMessage | undefined {
    return id ? this.core.world.messages.get(id) : undefined;
  }

  /** POST /interactions/:id/:token/callback */
  callback(id: string, token: string, body: any, files: UploadedFile[], withResponse: boolean) {
    const i = this.all.get(id);
    if (!i || i.token !== token) throw unknownInteraction();
    const type = Number(body?.type);
    const fail = (e: DiscordHttpError): never => {
      i.rejected.push({ type, status: e.status, code: e.code, message: e.message, at: Date.now() });
      this.core.changed();
      throw e;
    };
    if (i.callbacks.length > 0) fail(alreadyAcknowledged());
    if (Date.now() - i.createdAt > this.ackTimeoutMs) fail(unknownInteraction());
    const data = body?.data ?? {};
    const isCommand = i.type === InteractionType.ApplicationCommand;
    const isComponent = i.type === InteractionType.MessageComponent;
    const isModalFromComponent = i.type === InteractionType.ModalSubmit && i.sourceMessageId !== null;
    const allowed: Record<number, boolean> = {
      [InteractionResponseType.ChannelMessageWithSource]: i.type !== InteractionType.ApplicationCommandAutocomplete,
      [InteractionResponseType.DeferredChannelMessageWithSource]: i.type !== InteractionType.ApplicationCommandAutocomplete,
      [InteractionResponseType.DeferredMessageUpdate]: isComponent || isModalFromComponent,
      [InteractionResponseType.UpdateMessage]: isComponent || isModalFromComponent,
      [InteractionResponseType.ApplicationCommandAutocompleteResult]: i.type === InteractionType.ApplicationCommandAutocomplete,
      [InteractionResponseType.Modal]: isCommand || isComponent,
    };
    // Only the response types listed above pass: from here on `type` is one of them.
    const isAllowed = (t: number): t is InteractionResponseType => allowed[t] === true;
    if (!isAllowed(type)) {
      return fail(
        invalidForm(['type'], 'INTERACTION_RESPONSE_TYPE_INVALID', `Interaction response type ${type} is invalid for this interaction`),
      );
    }
    const core = this.core;
    let message: SimMessage | undefined;
    try {
      switch (type) {
        case InteractionResponseType.ChannelMessageWithSource: {
          const ephemeral = ((data.flags ?? 0) & MessageFlags.Ephemeral) !== 0;
          message = core.createMessage({
            channelId: i.channelId,
            authorId: core.botUserId,
            body: data,
            files,
            interactionId: i.id,
            interaction: { userId: i.userId, type: i.type },
            visibleTo: ephemeral ? i.userId : null,
            type: isCommand ? 20 : 0,
          });
          i.originalMessageId = message.id;
          break;
        }
        case InteractionResponseType.DeferredChannelMessageWithSource: {
          const ephemeral = ((data.flags ?? 0) & MessageFlags.Ephemeral) !== 0;
          message = core.createMessage({
            channelId: i.channelId,
            authorId: core.botUserId,
            body: { content: '', flags: MessageFlags.Loading | (ephemeral ? MessageFlags.Ephemeral : 0) },
            interactionId: i.id,
            interaction: { userId: i.userId, type: i.type },
            visibleTo: ephemeral ? i.userId : null,
            type: isCommand ? 20 : 0,
            trusted: true,
          });
          i.originalMessageId = message.id;
          break;
        }
        case InteractionResponseType.DeferredMessageUpdate:
          i.originalMessageId = i.sourceMessageId;
          i.versionsAtDefer = this.messageOf(i, i.sourceMessageId)?.history.length ?? 0;
          break;
        case InteractionResponseType.UpdateMessage: {
          const source = this.messageOf(i, i.sourceMessageId);
          if (!source || source.deleted) throw unknownMessage();
          message = core.editMessage(source, data, files);
          i.originalMessageId = source.id;
          break;
        }
        case InteractionResponseType.ApplicationCommandAutocompleteResult: {
          const c = new FormErrorCollector();
          validateChoices(c, data);
          c.throwIfAny();
          break;
        }
        case InteractionResponseType.Modal: {
          const c = new FormErrorCollector();
          validateModal(c, data);
          c.throwIfAny();
          break;
        }
      }
    } catch (e) {
      if (e instanceof DiscordHttpError) fail(e);
      throw e;
    }
    i.callbacks.push({ type, data, at: Date.now() });
    core.changed();
    if (!withResponse) return undefined;
    return {
      interaction: {
        id: i.id,
        type: i.type,
        activity_instance_id: null,
        response_message_id: message?.id ?? null,
        response_message_loading: type === InteractionResponseType.DeferredChannelMessageWithSource,
        response_message_ephemeral: message ? (message.flags & MessageFlags.Ephemeral) !== 0 : false,
      },
      resource: message ? { type, message: apiMessage(core.world, message) } : { type },
    };
  }

  /** The interaction behind an interaction webhook (`/webhooks/:appId/:token`), valid 15 minutes after an ack. */
  fromWebhook(appId: string, token: string): SimInteraction {
    const i = this.byToken.get(token);
    if (!i || appId !== this.core.appId) throw unknownWebhook();
    if (Date.now() - i.createdAt > INTERACTION_TOKEN_TTL_MS) throw new DiscordHttpError(401, 50027, 'Invalid Webhook Token');
    if (i.callbacks.length === 0) throw unknownWebhook();
    return i;
  }

  /** The message behind @original or a follow-up id. */
  target(i: SimInteraction, messageId: string): SimMessage {
    const id = messageId === '@original' ? i.originalMessageId : messageId;
    if (!id || (messageId !== '@original' && id !== i.originalMessageId && !i.followUpIds.includes(id))) throw unknownMessage();
    const m = this.core.world.messages.get(id);
    if (!m || m.deleted) throw unknownMessage();
    return m;
  }

  /** POST /webhooks/:appId/:token: a follow-up; the first one after a deferral fills the placeholder. */
  followUp(i: SimInteraction, body: any, files: UploadedFile[]): SimMessage {
    const placeholder = this.messageOf(i, i.originalMessageId);
    if (placeholder && !placeholder.deleted && (placeholder.flags & MessageFlags.Loading) !== 0 && placeholder.interactionId === i.id) {
      return this.core.editMessage(placeholder, body ?? {}, files);
    }
    const ephemeral = ((body?.flags ?? 0) & MessageFlags.Ephemeral) !== 0;
    const m = this.core.createMessage({
      channelId: i.channelId,
      authorId: this.core.botUserId,
      body: body ?? {},
      files,
      interactionId: i.id,
      interaction: { userId: i.userId, type: i.type },
      visibleTo: ephemeral ? i.userId : null,
      type: 0,
    });
    i.followUpIds.push(m.id);
    this.core.changed();
    return m;
  }
}
