import type { RepliableInteraction } from 'discord.js';
import type { LiveGame } from '../../discord/live-games.ts';
import type { Change } from '../../game/index.ts';
import type { GameCommand } from '../../session/game-session.ts';
import type { Acknowledge } from '../handlers.ts';
import { refuse } from './context.ts';

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
