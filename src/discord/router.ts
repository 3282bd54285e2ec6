import {
  Events,
  type AutocompleteInteraction,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type Client,
  type ClientEvents,
  type Interaction,
  type Message,
  type ModalSubmitInteraction,
  type RepliableInteraction,
  type StringSelectMenuInteraction,
} from 'discord.js';
import type { Logger } from '../log.ts';
import { interactionTraceLine } from './interaction-trace.ts';
import { responderOf, type Acknowledgement, type AckStyle, type Responder } from './responder.ts';
import type { LiveGames } from './live-games.ts';
import type { ShardRelay } from './shard-relay.ts';
import { onChannelDelete } from './listeners/channel-delete.ts';
import { onGuildDelete } from './listeners/guild-delete.ts';
import { onInteractionCreate } from './listeners/interaction-create.ts';
import { onMessageCreate } from './listeners/message-create.ts';
import { onMessageDelete } from './listeners/message-delete.ts';
import { onMessageDeleteBulk } from './listeners/message-delete-bulk.ts';
import { onMessageUpdate } from './listeners/message-update.ts';
import { onRaw } from './listeners/raw.ts';
import { onThreadDelete } from './listeners/thread-delete.ts';

/** A handler gets the interaction and its one Responder, the only way anything is sent for it. */
type Handler<T> = (interaction: T, responder: Responder) => Promise<void>;
/** How a handler acknowledges (its declaration's `ack`), or how it would for this interaction (one handler for several buttons). */
type AckOf<T> = AckStyle | ((interaction: T) => AckStyle);
interface Route<T> {
  readonly handle: Handler<T>;
  readonly ack: AckOf<T>;
}
/** A route bound to the interaction it answers. */
interface Routed {
  readonly run: (responder: Responder) => Promise<void>;
  readonly ack: AckStyle;
}
type AutocompleteHandler = (interaction: AutocompleteInteraction) => Promise<void>;
type MessageHandler = (message: Message) => Promise<void>;

/** An interaction no handler answers is told so privately. */
const UNROUTED_ACK: AckStyle = 'ephemeral';

function ackOf<T>(ack: AckOf<T>, interaction: T): AckStyle {
  return typeof ack === 'function' ? ack(interaction) : ack;
}

/** Custom ids are `prefix:rest…`; the prefix picks the handler, the rest is the handler's own (e.g. a game id). */
function customIdPrefix(customId: string): string {
  const colon = customId.indexOf(':');
  return colon === -1 ? customId : customId.slice(0, colon);
}

/** The parts after the prefix: `lobby:join:g1` → ['join', 'g1']. */
export function customIdArgs(customId: string): string[] {
  return customId.split(':').slice(1);
}

/** What hears the gateway besides the router's handlers. */
export interface Gateway {
  /** They hear who is still in a server, and of channels, threads, servers and messages deleted or edited. */
  readonly games: LiveGames;
  /** Sharding: asked before an interaction or message is routed, and handed the raw packets (where it forwards DMs). */
  readonly relay: ShardRelay | null;
}

/**
 * When a listener stops at shutdown: `asking` (interactions, messages, raw packets: what people ask
 * of the bot) first; `following` (deletions and edits the live games follow) once they close.
 */
type Until = 'asking' | 'following';
type Admit = (event: Interaction | Message) => Promise<boolean>;

/**
 * One place where every Discord event enters: it subscribes each listener of `listeners/` (one file
 * per gateway event). Slash subcommands are routed by `command subcommand`, autocomplete likewise,
 * buttons, selects and modals by custom-id prefix, and messages (day chat, DMs) to whoever listens.
 * A handler that throws is a bug: it is logged and the person gets an apology instead of "This
 * interaction failed".
 */
export class InteractionRouter {
  private readonly slash = new Map<string, Route<ChatInputCommandInteraction>>();
  private readonly autocomplete = new Map<string, AutocompleteHandler>();
  private readonly buttons = new Map<string, Route<ButtonInteraction>>();
  private readonly selects = new Map<string, Route<StringSelectMenuInteraction>>();
  private readonly modals = new Map<string, Route<ModalSubmitInteraction>>();
  private readonly messageListeners: MessageHandler[] = [];
  /** Work in flight, so shutdown and tests can wait for it. */
  private readonly inFlight = new Set<Promise<void>>();
  /** How to unsubscribe each listener attached, by when it stops. */
  private readonly unsubscribe: Record<Until, (() => void)[]> = { asking: [], following: [] };

  constructor(
    private readonly log: Logger,
    /** Log the moment each interaction arrives (INTERACTION_TRACE), before it is admitted or routed. */
    private readonly trace = false,
  ) {}

  onSlash(
    command: string,
    subcommand: string,
    handle: Handler<ChatInputCommandInteraction>,
    ack: AckOf<ChatInputCommandInteraction>,
  ): this {
    this.slash.set(`${command} ${subcommand}`, { handle, ack });
    return this;
  }
  onAutocomplete(command: string, subcommand: string, handler: AutocompleteHandler): this {
    this.autocomplete.set(`${command} ${subcommand}`, handler);
    return this;
  }
  onButton(prefix: string, handle: Handler<ButtonInteraction>, ack: AckOf<ButtonInteraction>): this {
    this.buttons.set(prefix, { handle, ack });
    return this;
  }
  onSelect(prefix: string, handle: Handler<StringSelectMenuInteraction>, ack: AckOf<StringSelectMenuInteraction>): this {
    this.selects.set(prefix, { handle, ack });
    return this;
  }
  onModal(prefix: string, handle: Handler<ModalSubmitInteraction>, ack: AckOf<ModalSubmitInteraction>): this {
    this.modals.set(prefix, { handle, ack });
    return this;
  }
  /** Later slices: day chat into the transcript, DMs from players (wills, dead players told privately). */
  onMessage(handler: MessageHandler): this {
    this.messageListeners.push(handler);
    return this;
  }

  /**
   * Subscribes every listener. The relay, when given, is asked first and may keep an interaction or
   * message from this process (sharding: a DM that belongs to another shard's game is handed to it instead).
   */
  attach(client: Client, { games, relay }: Gateway): void {
    const admit = relay?.admit;
    this.listen(
      client,
      'asking',
      Events.InteractionCreate,
      onInteractionCreate(games, (i) => this.interaction(i, admit)),
    );
    this.listen(
      client,
      'asking',
      Events.MessageCreate,
      onMessageCreate(games, (m) => this.message(client, m, admit)),
    );
    if (relay?.forwards) {
      const raw = onRaw(relay);
      client.on(Events.Raw, raw);
      this.unsubscribe.asking.push(() => client.off(Events.Raw, raw));
    }
    const track = (work: Promise<void>) => games.background(work);
    this.listen(client, 'following', Events.ChannelDelete, onChannelDelete(games));
    this.listen(client, 'following', Events.ThreadDelete, onThreadDelete(games));
    this.listen(client, 'following', Events.GuildDelete, onGuildDelete(games));
    this.listen(client, 'following', Events.MessageUpdate, onMessageUpdate(games.words, track));
    this.listen(client, 'following', Events.MessageDelete, onMessageDelete(games.words, track));
    this.listen(client, 'following', Events.MessageBulkDelete, onMessageDeleteBulk(games.words, track));
  }

  /** Stops hearing what people ask (interactions, messages, the relay's packets): the first step of a shutdown. */
  stopAsking(): void {
    for (const off of this.unsubscribe.asking.splice(0)) off();
  }

  /** Stops hearing the gateway at all. */
  detach(): void {
    this.stopAsking();
    for (const off of this.unsubscribe.following.splice(0)) off();
  }

  private listen<E extends keyof ClientEvents>(client: Client, until: Until, event: E, listener: (...args: ClientEvents[E]) => void): void {
    client.on(event, listener);
    this.unsubscribe[until].push(() => client.off(event, listener));
  }

  private interaction(i: Interaction, admit: Admit | undefined): void {
    if (this.trace) this.log.info(interactionTraceLine({ id: i.id, at: Date.now() }));
    const work = admit ? admit(i).then((here) => (here ? this.route(i) : undefined)) : this.route(i);
    this.track(work, i);
  }

  /** To every message listener, each on its own; the bot's own messages to none. */
  private message(client: Client, message: Message, admit: Admit | undefined): void {
    if (message.author.id === client.user?.id) return;
    const listen = () => {
      for (const listener of this.messageListeners) this.track(listener(message), null);
    };
    if (!admit) listen();
    else
      this.track(
        admit(message).then((here) => (here ? listen() : undefined)),
        null,
      );
  }

  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private track(work: Promise<void>, interaction: Interaction | null): void {
    const guarded = work.catch((error: unknown) => this.failed(error, interaction));
    this.inFlight.add(guarded);
    void guarded.finally(() => this.inFlight.delete(guarded));
  }

  private route(i: Interaction): Promise<void> {
    if (i.isAutocomplete()) {
      const handler = this.autocomplete.get(`${i.commandName} ${i.options.getSubcommand(false) ?? ''}`);
      return handler ? handler(i) : i.respond([]);
    }
    const routed = this.routeOf(i);
    if (routed === null || !i.isRepliable()) return Promise.resolve();
    const responder = responderOf(i);
    // Old buttons from a previous version of the bot end up here.
    return routed ? routed.run(responder) : responder.as(UNROUTED_ACK).privately('This button or command is no longer in use.');
  }

  /** The handler of an interaction, bound to it, with how it acknowledges: undefined when none is registered, null for a kind never routed. */
  private routeOf(i: Interaction): Routed | undefined | null {
    const bind = <T extends RepliableInteraction>(routes: Map<string, Route<T>>, key: string, it: T): Routed | undefined => {
      const route = routes.get(key);
      return route && { run: (responder) => route.handle(it, responder), ack: ackOf(route.ack, it) };
    };
    if (i.isChatInputCommand()) return bind(this.slash, `${i.commandName} ${i.options.getSubcommand(false) ?? ''}`, i);
    if (i.isButton()) return bind(this.buttons, customIdPrefix(i.customId), i);
    if (i.isStringSelectMenu()) return bind(this.selects, customIdPrefix(i.customId), i);
    if (i.isModalSubmit()) return bind(this.modals, customIdPrefix(i.customId), i);
    return null;
  }

  /**
   * Acknowledges an interaction now, through its one Responder, as its handler's `ack` would (the
   * handler then goes on from it): for an interaction that cannot be answered at once where it
   * arrived (sharding: a DM handed to its game's shard). Says what Discord then holds, null when
   * its handler acknowledges nothing ahead (it answers with a form).
   */
  acknowledge(i: RepliableInteraction): Promise<Acknowledgement | null> {
    return responderOf(i).acknowledge(this.routeOf(i)?.ack ?? UNROUTED_ACK);
  }

  private async failed(error: unknown, interaction: Interaction | null): Promise<void> {
    this.log.error(`handler failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    if (!interaction?.isRepliable()) return;
    try {
      // Through the same Responder as the handler, after what it sent: never a second first answer.
      await responderOf(interaction).as('ephemeral').privately('Something went wrong on my side; nothing was changed. Please try again.');
    } catch {
      // The interaction may have expired; the log has the cause.
    }
  }
}
