import type { Client } from 'discord.js';
import { isModelNotice } from '../agents/driver/notices.ts';
import type { GameEvent } from '../game/index.ts';
import type { Logger } from '../log.ts';
import { NO_MENTIONS } from './presenters/format.ts';

/**
 * A model its provider no longer serves is also told to the host by DM (the channel line cannot
 * ping them, every send disables mentions): they created the game, and may be the one who can
 * change the setting it names.
 */
export async function dmHostOfGoneModels(
  client: Client,
  log: Logger,
  game: { readonly hostId: string; readonly channelId: string; readonly state: { readonly id: string } },
  events: readonly GameEvent[],
): Promise<void> {
  for (const e of events) {
    if (e.type !== 'notice' || !isModelNotice(e.payload.topic) || game.hostId === '') continue;
    try {
      await client.users.send(game.hostId, {
        content: `In your Mafia game in <#${game.channelId}>: ${e.payload.text}`,
        allowedMentions: NO_MENTIONS,
      });
    } catch (error) {
      // The channel has the same line: a host with closed DMs still reads it there.
      log.warn(`${game.state.id}: the DM telling the host of a gone model was not sent: ${String(error)}`);
    }
  }
}
