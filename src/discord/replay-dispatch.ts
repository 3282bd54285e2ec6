import type { Client } from 'discord.js';

/** The gateway dispatches another shard may hand to this process. */
export type ReplayableDispatch = 'INTERACTION_CREATE' | 'MESSAGE_CREATE';

/** discord.js's own handlers of gateway dispatches (`client.actions`): internal, so missing from its typings. */
interface DispatchActions {
  readonly actions: {
    readonly InteractionCreate: { handle(data: unknown): unknown };
    readonly MessageCreate: { handle(data: unknown): unknown };
  };
}

/**
 * Feeds a dispatch's `d` that arrived on another shard's connection through the handlers discord.js
 * runs for its own gateway packets, so it is cached and emitted (`interactionCreate`,
 * `messageCreate`) exactly as if it had arrived here. The one place that reaches into discord.js.
 */
export function replayDispatch(client: Client, type: ReplayableDispatch, data: unknown): void {
  // discord.js 14 keeps these handlers on client.actions (ActionsManager); they are not typed.
  const { actions } = client as unknown as DispatchActions;
  if (type === 'INTERACTION_CREATE') actions.InteractionCreate.handle(data);
  else actions.MessageCreate.handle(data);
}
