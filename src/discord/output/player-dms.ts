import { isMafia, viewFor, type GameEvent, type GameState } from '../../game/index.ts';
import { investigationResultDms } from '../presenters/investigation.ts';
import { nightActionMessage } from '../presenters/night-action.ts';
import { nightReminderDm, owingNightAction } from '../presenters/reminder.ts';
import { roleCardMessage } from '../presenters/role-card.ts';
import type { OutputGame, Sends } from './sends.ts';

/**
 * Each person gets their own card, built from their own view only (viewFor is the one gate for
 * secrets); when the game starts at night, with their first night menu in the same message.
 */
export async function roleCards(sends: Sends, game: OutputGame, events: readonly GameEvent[], state: GameState): Promise<void> {
  const channel = await sends.channel(game.channelId);
  const channelName = channel && 'name' in channel && typeof channel.name === 'string' ? channel.name : 'the game channel';
  const nightFalls = state.phase === 'night' && events.some((e) => e.type === 'phase_started' && e.payload.phase === 'night');
  for (const player of state.players) {
    const userId = player.userId;
    if (player.kind !== 'human' || !userId) continue;
    const view = viewFor(state, player.id);
    if (!view) continue;
    const card = roleCardMessage(view, channelName);
    const menu = nightFalls ? nightActionMessage(state, player.id) : null;
    const message = menu ? { ...card, embeds: [...(card.embeds ?? []), ...(menu.embeds ?? [])], components: menu.components } : card;
    await sends.dm(game, { userId, name: player.name }, menu ? 'their role card and night menu' : 'their role card', message);
  }
}

/** Each living human with a night action gets the menu by DM; on the Mafia's second round, the Mafia again. */
export async function nightMenus(sends: Sends, game: OutputGame, events: readonly GameEvent[], state: GameState): Promise<void> {
  if (state.phase !== 'night') return;
  const nightStarted = events.some((e) => e.type === 'phase_started' && e.payload.phase === 'night');
  const secondRound = events.some((e) => e.type === 'mafia_second_round');
  // The first night's menus went with the role cards.
  if ((!nightStarted && !secondRound) || events.some((e) => e.type === 'game_started')) return;
  for (const p of state.players) {
    if (p.kind !== 'human' || !p.userId || !p.alive) continue;
    if (!nightStarted && !isMafia(p.role)) continue;
    const message = nightActionMessage(state, p.id);
    if (!message) continue;
    await sends.dm(game, { userId: p.userId, name: p.name }, 'their night menu', message);
  }
}

/** At dawn: each human Detective's result, by DM (AI Detectives read it in their view). */
export async function investigationResults(sends: Sends, game: OutputGame, events: readonly GameEvent[], state: GameState): Promise<void> {
  for (const result of investigationResultDms(events, state)) await sends.dm(game, result.to, 'their investigation result', result.message);
}

/** Shortly before the night's deadline: a DM to each person who has not acted. */
export async function nightReminders(sends: Sends, game: OutputGame, state: GameState): Promise<void> {
  for (const p of owingNightAction(state)) {
    const dm = nightReminderDm(state, p.id);
    const userId = p.userId;
    if (!dm || !userId) continue;
    await sends.dm(game, { userId, name: p.name }, 'their night reminder', dm);
  }
}
