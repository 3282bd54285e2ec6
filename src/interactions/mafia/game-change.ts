import type { ButtonInteraction, RepliableInteraction } from 'discord.js';
import type { LiveGame } from '../../discord/live-games.ts';
import type { Change } from '../../game/index.ts';
import type { GameCommand } from '../../session/game-session.ts';
import { tellPrivately, type Acknowledge } from '../handlers.ts';
import { refuse, type MafiaDeps } from './context.ts';

/**
 * A person's change to a game (a vote, a night pick, a seat…), answered before it is stored:
 *
 * - The engine decides at once on the game in memory, every earlier change included: a refusal is
 *   answered at once and is final (nothing changed, nothing to store).
 * - An accepted change is acknowledged at once, claiming nothing yet (a private "thinking…", or a
 *   component's silent update), and confirmed only once stored; what everyone sees (the vote
 *   tally, the lobby) is published only once stored too.
 * - A change that cannot be stored (after retries, and a check that it did not land after all) is
 *   undone, with every change decided on top of it, and the person is told it did not count.
 *
 * So nobody reads a confirmation of something that is not stored: a crash between the
 * acknowledgement and the write leaves a "thinking…" that never turns into "Your vote: …" (and a
 * tally without that vote), never a vote its player believes counted that the restarted bot forgets.
 */
export async function changeGame(
  i: RepliableInteraction,
  found: { readonly table: LiveGame; readonly ack: Acknowledge },
  command: GameCommand,
  confirm: (change: Change) => Promise<unknown>,
): Promise<void> {
  const applied = found.table.apply(command);
  if (!applied.ok) return refuse(i, applied.error.message);
  let unacknowledged: Error | null = null;
  try {
    await found.ack();
  } catch (error) {
    // Too late for Discord (the person saw "This interaction failed"): the change still stands and
    // is stored, and shows where everyone sees it; only the answer is lost.
    unacknowledged = error instanceof Error ? error : new Error(String(error));
  }
  const stored = await applied.value.stored;
  if (unacknowledged !== null) throw unacknowledged;
  if (!stored.ok) return refuse(i, stored.error.message);
  await confirm(stored.value);
}

/**
 * A person's own move that only they hear about (a night pick, a vote): answered at once, in one
 * call, with what the engine decided on the game in memory; then stored. The public side (the
 * tally) still waits for the store. If the store fails, the change is undone and the person told
 * it did not count, after the answer. Only a crash in the moment between the answer and the write
 * leaves an answer for a move the restarted bot does not have (the person sees their pick missing
 * from the menu or the tally and makes it again): the price of one REST call instead of two for
 * each of the game's busiest interactions.
 */
export async function changeGameAnsweringAtOnce(
  i: RepliableInteraction,
  found: { readonly table: LiveGame },
  command: GameCommand,
  answer: (change: Change) => string,
): Promise<void> {
  const applied = found.table.apply(command);
  if (!applied.ok) return refuse(i, applied.error.message);
  let unanswered: unknown = null;
  try {
    await tellPrivately(i, answer(applied.value.change));
  } catch (error) {
    // Too late for Discord: the change still stands and is stored; only the answer is lost.
    unanswered = error;
  }
  const stored = await applied.value.stored;
  if (!stored.ok) return refuse(i, stored.error.message);
  if (unanswered !== null) throw unanswered instanceof Error ? unanswered : new Error('the answer could not be sent');
}

/**
 * A lobby button's change (a seat taken, the start): the click is answered by the lobby message
 * itself, drawn from the game in memory, in one call; the output then edits it only if the stored
 * lobby looks different. If the store fails, the change is undone, the lobby drawn again and the
 * person told.
 */
export async function changeLobbyByClick(
  i: ButtonInteraction,
  found: { readonly table: LiveGame; readonly deps: MafiaDeps },
  command: GameCommand,
): Promise<void> {
  const applied = found.table.apply(command);
  if (!applied.ok) return refuse(i, applied.error.message);
  const { table, deps } = found;
  let unanswered: unknown = null;
  try {
    await i.update(deps.liveGames.output.lobbyShownBy(table.state, table.hostId));
  } catch (error) {
    unanswered = error;
  }
  const stored = await applied.value.stored;
  if (!stored.ok) {
    await i.message.edit(deps.liveGames.output.lobbyShownBy(table.state, table.hostId)).catch(() => undefined);
    return refuse(i, stored.error.message);
  }
  if (unanswered !== null) throw unanswered instanceof Error ? unanswered : new Error('the answer could not be sent');
}
