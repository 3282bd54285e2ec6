import type { ButtonInteraction, RepliableInteraction } from 'discord.js';
import type { LiveGame } from '../../discord/live-games.ts';
import type { Change } from '../../game/index.ts';
import type { GameCommand } from '../../session/game-session.ts';
import { lobbyMessage } from '../../discord/lobby-view.ts';
import { tellPrivately, withinGrace, type Acknowledge } from '../handlers.ts';
import { refuse, type MafiaDeps } from './context.ts';

/**
 * A person's change to a game (a vote, a night pick, a seat…), confirmed only once stored:
 *
 * - The engine decides at once on the game in memory, every earlier change included: a refusal is
 *   answered at once and is final (nothing changed, nothing to store).
 * - An accepted change is acknowledged, claiming nothing yet (a private "thinking…", or a
 *   component's silent update), and confirmed once stored; what everyone sees (the vote tally, the
 *   lobby) is published only once stored too. `acknowledge: 'if-slow'`: only if the store takes
 *   longer than ACK_GRACE_MS; usually it does not, and the confirmation is the answer itself (one
 *   REST call instead of two), which `confirm` must then send as a first answer.
 * - A change that cannot be stored (after retries, and a check that it did not land after all) is
 *   undone, with every change decided on top of it, and the person is told it did not count.
 *
 * So nobody reads a confirmation of something that is not stored: a crash before the write leaves
 * a "thinking…" (or nothing) that never turns into "Your vote: …" (and a tally without that vote),
 * never a vote its player believes counted that the restarted bot forgets.
 */
export async function changeGame(
  i: RepliableInteraction,
  found: { readonly table: LiveGame; readonly ack: Acknowledge },
  command: GameCommand,
  confirm: (change: Change) => Promise<unknown>,
  acknowledge: 'at once' | 'if-slow' = 'at once',
): Promise<void> {
  const applied = found.table.apply(command);
  if (!applied.ok) return refuse(i, applied.error.message);
  const soon = acknowledge === 'if-slow' ? await withinGrace(applied.value.stored) : null;
  let unacknowledged: Error | null = null;
  if (soon === null) {
    try {
      await found.ack();
    } catch (error) {
      // Too late for Discord (the person saw "This interaction failed"): the change still stands and
      // is stored, and shows where everyone sees it; only the answer is lost.
      unacknowledged = error instanceof Error ? error : new Error(String(error));
    }
  }
  const stored = soon ?? (await applied.value.stored);
  if (unacknowledged !== null) throw unacknowledged;
  if (!stored.ok) return refuse(i, stored.error.message);
  await confirm(stored.value);
}

/** A person's own move that only they hear about (a night pick, a vote, a seat): `changeGame`, confirmed privately in one call when the store is quick. */
export function changeGameAnsweringOnceStored(
  i: RepliableInteraction,
  found: { readonly table: LiveGame; readonly ack: Acknowledge },
  command: GameCommand,
  answer: (change: Change) => string,
): Promise<void> {
  return changeGame(i, found, command, (change) => tellPrivately(i, answer(change)), 'if-slow');
}

/**
 * A lobby button's change (a seat taken, the start), confirmed only once stored: the click is
 * answered by the lobby message itself, drawn from the game as stored (one call when the store
 * answers within ACK_GRACE_MS, else acknowledged first and edited after); meanwhile the output
 * leaves the lobby to the click. A change that could not be stored leaves the lobby as it was, and
 * the person is told why.
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
  try {
    const soon = await withinGrace(applied.value.stored);
    if (soon === null) await found.ack();
    const stored = soon ?? (await applied.value.stored);
    const view = lobbyMessage(table.session.storedState, table.hostId);
    if (i.deferred) await i.editReply(view);
    else await i.update(view);
    if (!stored.ok) await refuse(i, stored.error.message);
  } finally {
    output.lobbyClickDone(table.state.id);
  }
}
