import {
  Events,
  type AutocompleteInteraction,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type Client,
  type Interaction,
  type Message,
  type ModalSubmitInteraction,
  type RepliableInteraction,
  type StringSelectMenuInteraction,
} from 'discord.js';
import type { Logger } from '../log.ts';
import { responderOf, type Responder } from './responder.ts';

/** A handler gets the interaction and its one Responder, the only way anything is sent for it. */
type Handler<T> = (interaction: T, responder: Responder) => Promise<void>;
type AutocompleteHandler = (interaction: AutocompleteInteraction) => Promise<void>;
type MessageHandler = (message: Message) => Promise<void>;

/** Custom ids are `prefix:rest…`; the prefix picks the handler, the rest is the handler's own (e.g. a game id). */
function customIdPrefix(customId: string): string {
  const colon = customId.indexOf(':');
  return colon === -1 ? customId : customId.slice(0, colon);
}

/** The parts after the prefix: `lobby:join:g1` → ['join', 'g1']. */
export function customIdArgs(customId: string): string[] {
  return customId.split(':').slice(1);
}

/**
 * One place where every Discord event enters: slash subcommands by `command subcommand`,
 * autocomplete likewise, buttons, selects and modals by custom-id prefix, and messages
 * (day chat, DMs) to whoever listens. A handler that throws is a bug: it is logged and the
 * person gets an apology instead of "This interaction failed".
 */
export class InteractionRouter {
  private readonly slash = new Map<string, Handler<ChatInputCommandInteraction>>();
  private readonly autocomplete = new Map<string, AutocompleteHandler>();
  private readonly buttons = new Map<string, Handler<ButtonInteraction>>();
  private readonly selects = new Map<string, Handler<StringSelectMenuInteraction>>();
  private readonly modals = new Map<string, Handler<ModalSubmitInteraction>>();
  private readonly messageListeners: MessageHandler[] = [];
  /** Work in flight, so shutdown and tests can wait for it. */
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly log: Logger) {}

  onSlash(command: string, subcommand: string, handler: Handler<ChatInputCommandInteraction>): this {
    this.slash.set(`${command} ${subcommand}`, handler);
    return this;
  }
  onAutocomplete(command: string, subcommand: string, handler: AutocompleteHandler): this {
    this.autocomplete.set(`${command} ${subcommand}`, handler);
    return this;
  }
  onButton(prefix: string, handler: Handler<ButtonInteraction>): this {
    this.buttons.set(prefix, handler);
    return this;
  }
  onSelect(prefix: string, handler: Handler<StringSelectMenuInteraction>): this {
    this.selects.set(prefix, handler);
    return this;
  }
  onModal(prefix: string, handler: Handler<ModalSubmitInteraction>): this {
    this.modals.set(prefix, handler);
    return this;
  }
  /** Later slices: day chat into the transcript, DMs from players (wills, dead players told privately). */
  onMessage(handler: MessageHandler): this {
    this.messageListeners.push(handler);
    return this;
  }

  /**
   * Starts routing the client's events. `admit`, when given, is asked first and may keep an event
   * from this process (sharding: a DM that belongs to another shard's game is handed to it instead).
   */
  attach(client: Client, admit?: (event: Interaction | Message) => Promise<boolean>): void {
    client.on(Events.InteractionCreate, (interaction) => {
      const work = admit ? admit(interaction).then((here) => (here ? this.route(interaction) : undefined)) : this.route(interaction);
      this.track(work, interaction);
    });
    client.on(Events.MessageCreate, (message) => {
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
    });
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
    if (i.isChatInputCommand()) return this.dispatch(this.slash.get(`${i.commandName} ${i.options.getSubcommand(false) ?? ''}`), i);
    if (i.isButton()) return this.dispatch(this.buttons.get(customIdPrefix(i.customId)), i);
    if (i.isStringSelectMenu()) return this.dispatch(this.selects.get(customIdPrefix(i.customId)), i);
    if (i.isModalSubmit()) return this.dispatch(this.modals.get(customIdPrefix(i.customId)), i);
    return Promise.resolve();
  }

  private dispatch<T extends RepliableInteraction>(handler: Handler<T> | undefined, i: T): Promise<void> {
    const responder = responderOf(i);
    // Old buttons from a previous version of the bot end up here.
    return handler ? handler(i, responder) : responder.as('ephemeral').privately('This button or command is no longer in use.');
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
