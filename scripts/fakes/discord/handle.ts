/** What a simulated user holds after starting an interaction: a way to await the bot's answer. */
import { InteractionResponseType, MessageFlags } from 'discord.js';
import type { SimCore } from './core.ts';
import { randomToken } from './ids.ts';
import type { InteractionCallback, Interactions, SimInteraction } from './interactions.ts';
import type { SimMessage } from './model.ts';

export interface WaitOptions {
  timeoutMs?: number;
}

const T = InteractionResponseType;

/** Every wait here reads only the simulator's state, which wakes it at each change: none polls. */
export class InteractionHandle {
  constructor(
    private readonly core: SimCore,
    readonly interaction: SimInteraction,
    private readonly defaultTimeoutMs: number,
  ) {}

  get id(): string {
    return this.interaction.id;
  }

  /** ms from the interaction to the bot's first callback, or null before it. */
  get ackLatencyMs(): number | null {
    const first = this.interaction.callbacks[0];
    return first ? first.at - this.interaction.createdAt : null;
  }

  private describe(): string {
    const d = this.interaction.data;
    const what = d?.name ? `/${d.name}` : d?.custom_id ? `${d.component_type ? 'component' : 'modal'} ${d.custom_id}` : 'interaction';
    return `${what} (${this.interaction.id})`;
  }

  private rejection(): Error | null {
    const r = this.interaction.rejected[0];
    if (!r || this.interaction.callbacks.length > 0) return null;
    return new Error(`The bot's callback to ${this.describe()} was refused: ${r.status} ${r.code} ${r.message}`);
  }

  /** The bot's first callback (any type). Rejects if it was refused or never came. */
  async ack(options: WaitOptions = {}): Promise<InteractionCallback> {
    const result = await this.core.until(() => this.interaction.callbacks[0] ?? this.rejection(), {
      timeoutMs: options.timeoutMs ?? this.defaultTimeoutMs,
      poll: false,
      description: `the bot to acknowledge ${this.describe()}`,
    });
    if (result instanceof Error) throw result;
    return result;
  }

  /**
   * The reply the user sees: for a message callback (4) the message; after a deferral (5) the message once
   * it was edited or filled by a follow-up; for a component update (7), or a deferred update (6) followed
   * by an edit, the updated message.
   */
  async reply(options: WaitOptions = {}): Promise<SimMessage> {
    const cb = await this.ack(options);
    if (cb.type === T.Modal) throw new Error(`${this.describe()} was answered with a modal (${cb.data?.custom_id}), not a message`);
    if (cb.type === T.ApplicationCommandAutocompleteResult) throw new Error(`${this.describe()} was answered with autocomplete choices`);
    return this.core.until(
      () => {
        const m = this.interaction.originalMessageId ? this.core.world.messages.get(this.interaction.originalMessageId) : undefined;
        if (!m) return undefined;
        if (m.flags & MessageFlags.Loading) return undefined;
        // A deferred update is answered by the edit that follows it; an earlier edit (maybe in the same millisecond) is not it.
        if (cb.type === T.DeferredMessageUpdate && m.history.length <= (this.interaction.versionsAtDefer ?? 0)) return undefined;
        return m;
      },
      { timeoutMs: options.timeoutMs ?? this.defaultTimeoutMs, poll: false, description: `the reply to ${this.describe()}` },
    );
  }

  /** The reply, asserting only this user sees it. */
  async ephemeral(options: WaitOptions = {}): Promise<SimMessage> {
    const m = await this.reply(options);
    if (!(m.flags & MessageFlags.Ephemeral))
      throw new Error(`The reply to ${this.describe()} is public, not ephemeral: ${JSON.stringify(m.content)}`);
    return m;
  }

  /** The reply, asserting everyone in the channel sees it. */
  async public(options: WaitOptions = {}): Promise<SimMessage> {
    const m = await this.reply(options);
    if (m.flags & MessageFlags.Ephemeral)
      throw new Error(`The reply to ${this.describe()} is ephemeral, not public: ${JSON.stringify(m.content)}`);
    return m;
  }

  /** The message a component update (7, or 6 then an edit) left. */
  async updated(options: WaitOptions = {}): Promise<SimMessage> {
    const cb = await this.ack(options);
    if (cb.type !== T.UpdateMessage && cb.type !== T.DeferredMessageUpdate) {
      throw new Error(`${this.describe()} was answered with callback type ${cb.type}, not an update (7) or deferred update (6)`);
    }
    return this.reply(options);
  }

  /** The modal the bot showed (callback 9): `{ custom_id, title, components }`. */
  async modal(options: WaitOptions = {}): Promise<{ custom_id: string; title: string; components: any[] }> {
    const cb = await this.ack(options);
    if (cb.type !== T.Modal) throw new Error(`${this.describe()} was answered with callback type ${cb.type}, not a modal`);
    return cb.data;
  }

  /** Autocomplete choices (callback 8). */
  async choices(options: WaitOptions = {}): Promise<{ name: string; value: string | number }[]> {
    const cb = await this.ack(options);
    if (cb.type !== T.ApplicationCommandAutocompleteResult)
      throw new Error(`${this.describe()} was answered with callback type ${cb.type}, not choices`);
    return cb.data?.choices ?? [];
  }

  /** The n-th follow-up message (0-based). */
  async followUp(n = 0, options: WaitOptions = {}): Promise<SimMessage> {
    return this.core.until(
      () => {
        const id = this.interaction.followUpIds[n];
        return id ? this.core.world.messages.get(id) : undefined;
      },
      { timeoutMs: options.timeoutMs ?? this.defaultTimeoutMs, poll: false, description: `follow-up #${n} to ${this.describe()}` },
    );
  }

  /** Every message the bot produced for this interaction so far (reply first). */
  messages(): SimMessage[] {
    const ids = [this.interaction.originalMessageId, ...this.interaction.followUpIds].filter((x): x is string => !!x);
    return ids.map((id) => this.core.world.messages.get(id)).filter((m): m is SimMessage => !!m && !m.deleted);
  }
}

/** The same interaction started again now, under a new id and token, for whichever client is connected. */
export function replayInteraction(
  core: SimCore,
  interactions: Interactions,
  original: SimInteraction,
  timeoutMs: number,
): InteractionHandle {
  const id = core.ids.next();
  const token = `aW50ZXJhY3Rpb246${id}:${randomToken(60)}`;
  const interaction = startInteraction(core, interactions, { ...original, id, token, payload: { ...original.payload, id, token } });
  return new InteractionHandle(core, interaction, timeoutMs);
}

type Sent = Omit<
  SimInteraction,
  'createdAt' | 'dispatchedAt' | 'callbacks' | 'rejected' | 'originalMessageId' | 'versionsAtDefer' | 'followUpIds'
>;

/** An interaction as Discord starts one: nothing answered yet, kept, and sent to the gateway. */
export function startInteraction(core: SimCore, interactions: Interactions, sent: Sent): SimInteraction {
  const interaction: SimInteraction = {
    ...sent,
    createdAt: Date.now(),
    dispatchedAt: null,
    callbacks: [],
    rejected: [],
    originalMessageId: null,
    versionsAtDefer: null,
    followUpIds: [],
  };
  interactions.add(interaction);
  // Taken before the write, so it never comes after the bot's own record of the arrival (another process, the same clock).
  const dispatching = Date.now();
  if (core.gateway.dispatch('INTERACTION_CREATE', interaction.payload) > 0) interaction.dispatchedAt = dispatching;
  core.changed();
  return interaction;
}
