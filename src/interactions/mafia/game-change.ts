import { setTimeout as delay } from 'node:timers/promises';
import type { ButtonInteraction, RepliableInteraction } from 'discord.js';
import type { LiveGame } from '../../discord/live-games.ts';
import type { Change } from '../../game/index.ts';
import type { Applied, GameCommand, SessionError } from '../../session/game-session.ts';
import type { Result } from '../../result.ts';
import { ACK_GRACE_MS, tellPrivately, type Acknowledge } from '../handlers.ts';
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

/** The store's answer, or null if it did not come within the grace: the interaction is then acknowledged first. */
async function storedSoon(applied: Applied): Promise<Result<Change, SessionError> | null> {
  return Promise.race([applied.stored, delay(ACK_GRACE_MS).then(() => null)]);
}

/**
 * A person's own move that only they hear about (a night pick, a vote, a seat): confirmed only once
 * stored, as `changeGame`, but in one call when the store answers within ACK_GRACE_MS (usually):
 * the confirmation is then the answer itself. A slower store gets the private "thinking…" first and
 * the confirmation after, as before. So a crash never leaves a "Noted" for a pick the restarted bot
 * does not have, and most answers cost one REST call instead of two.
 */
export async function changeGameAnsweringOnceStored(
  i: RepliableInteraction,
  found: { readonly table: LiveGame; readonly ack: Acknowledge },
  command: GameCommand,
  answer: (change: Change) => string,
): Promise<void> {
  const applied = found.table.apply(command);
  if (!applied.ok) return refuse(i, applied.error.message);
  let unacknowledged: Error | null = null;
  const soon = await storedSoon(applied.value);
  if (soon === null) {
    try {
      await found.ack();
    } catch (error) {
      // Too late for Discord: the change still stands and is stored; only the answer is lost.
      unacknowledged = error instanceof Error ? error : new Error('the acknowledgement could not be sent');
    }
  }
  const stored = soon ?? (await applied.value.stored);
  if (unacknowledged !== null) throw unacknowledged;
  if (!stored.ok) return refuse(i, stored.error.message);
  await tellPrivately(i, answer(stored.value));
}

/**
 * A lobby button's change (a seat taken, the start), confirmed only once stored: the click is
 * answered by the lobby message itself, drawn from the game as stored (one call when the store
 * answers within ACK_GRACE_MS, else acknowledged first and edited after); meanwhile the output
 * leaves the lobby to the click.
 */
export async function changeLobbyByClick(
  i: ButtonInteraction,
  found: { readonly table: LiveGame; readonly deps: MafiaDeps; readonly ack: Acknowledge },
  command: GameCommand,
): Promise<void> {
  const { table, deps } = found;
  const output = deps.liveGames.output;
  const applied = table.apply(command);
  if (!applied.ok) return refuse(i, applied.error.message);
  output.lobbyClickPending(table.state.id);
  let drawn = false;
  try {
    const soon = await storedSoon(applied.value);
    if (soon === null) await found.ack();
    const stored = soon ?? (await applied.value.stored);
    const view = output.lobbyDrawnByClick(table.state.id, table.session.storedState, table.hostId);
    drawn = true;
    if (!stored.ok) {
      // Undone: the lobby as it stands, and why.
      if (i.deferred) await i.editReply(view);
      else await i.update(view);
      await refuse(i, stored.error.message);
      return;
    }
    if (i.deferred) await i.editReply(view);
    else await i.update(view);
  } finally {
    if (!drawn) output.lobbyDrawnByClick(table.state.id, table.session.storedState, table.hostId);
  }
}
