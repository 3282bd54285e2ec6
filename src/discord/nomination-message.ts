import type { TextChannel } from 'discord.js';
import type { GameEvent, GameState } from '../game/index.ts';
import { closedNominationMessage, nominationMessage } from './presenters/nominations.ts';

/** What the nominations message needs of a running game. */
export interface NominatingGame {
  nominationMessageId: string | null;
}

const CHANGES = new Set<GameEvent['type']>(['nominated', 'nomination_seconded', 'player_died']);

/** Whether these events touch a trial day's nominations message. */
export function touchesNominations(events: readonly GameEvent[], state: GameState): boolean {
  if (state.settings.rules.dayStyle !== 'trial') return false;
  return events.some((e) => e.type === 'phase_started' || CHANGES.has(e.type));
}

/**
 * A trial day's nominations message: posted when the discussion opens, edited as nominations and
 * seconds come in (a few a day: no pacing needed), and closed, without its menu, when the
 * discussion ends. After a restart a new one is posted at the next change.
 */
export async function updateNominations(
  channel: TextChannel | null,
  game: NominatingGame,
  events: readonly GameEvent[],
  state: GameState,
): Promise<void> {
  if (!channel) return;
  if (state.phase === 'day') {
    const opened = events.some((e) => e.type === 'phase_started' && e.payload.phase === 'day');
    if (opened || !game.nominationMessageId) game.nominationMessageId = (await channel.send(nominationMessage(state))).id;
    else await channel.messages.edit(game.nominationMessageId, nominationMessage(state));
    return;
  }
  const id = game.nominationMessageId;
  if (!id) return;
  game.nominationMessageId = null;
  await channel.messages.edit(id, closedNominationMessage(state));
}
