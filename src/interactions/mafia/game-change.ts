import type { LiveGame } from '../../discord/live-game.ts';
import type { Reply } from '../../discord/responder.ts';
import type { Change } from '../../game/index.ts';
import type { GameCommand } from '../../session/game-session.ts';
import { lobbyMessage } from '../../discord/lobby-view.ts';
import { withinGrace, type Acknowledge } from '../handlers.ts';
import type { MafiaDeps } from './context.ts';

/** What a change to a game needs of a handler: the game, and the interaction's answers. */
interface Changing {
  readonly game: LiveGame;
  readonly ack: Acknowledge;
  readonly reply: Reply;
}

/**
 * A person's change to a game (a vote, a night pick, a seat…), confirmed only once stored:
 *
 * - The engine decides at once on the game in memory, every earlier change included: a refusal is
 *   answered at once and is final (nothing changed, nothing to store).
 * - An accepted change is acknowledged, claiming nothing yet (a private "thinking…", or a
 *   component's silent update), and confirmed once stored; what everyone sees (the vote tally, the
 *   lobby) is published only once stored too. `acknowledge: 'if-slow'`: only if the store takes
 *   longer than ACK_GRACE_MS; usually it does not, and the confirmation is the answer itself (one
 *   REST call instead of two); `confirm` answers through `reply`, which knows which it is.
 * - A change that cannot be stored (after retries, and a check that it did not land after all) is
 *   undone, with every change decided on top of it, and the person is told it did not count.
 *
 * So nobody reads a confirmation of something that is not stored: a crash before the write leaves
 * a "thinking…" (or nothing) that never turns into "Your vote: …" (and a tally without that vote),
 * never a vote its player believes counted that the restarted bot forgets.
 */
export async function changeGame(
  found: Changing,
  command: GameCommand,
  confirm: (change: Change) => Promise<unknown>,
  acknowledge: 'at once' | 'if-slow' = 'at once',
): Promise<void> {
  const applied = found.game.apply(command);
  if (!applied.ok) return found.reply.privately(applied.error.message);
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
  if (!stored.ok) return found.reply.privately(stored.error.message);
  await confirm(stored.value);
}

/** A person's own move that only they hear about (a night pick, a vote, a seat): `changeGame`, confirmed privately in one call when the store is quick. */
export function changeGameAnsweringOnceStored(found: Changing, command: GameCommand, answer: (change: Change) => string): Promise<void> {
  return changeGame(found, command, (change) => found.reply.privately(answer(change)), 'if-slow');
}

/**
 * A lobby button's change (a seat taken, the start), confirmed only once stored: the click is
 * answered by the lobby message itself, drawn from the game as stored (one call when the store
 * answers within ACK_GRACE_MS, else acknowledged first and edited after); meanwhile the output
 * leaves the lobby to the click. A change that could not be stored leaves the lobby as it was, and
 * the person is told why.
 */
export async function changeLobbyByClick(found: Changing & { readonly deps: MafiaDeps }, command: GameCommand): Promise<void> {
  const { game, deps, reply } = found;
  const output = deps.liveGames.output;
  const applied = game.apply(command);
  if (!applied.ok) return reply.privately(applied.error.message);
  output.lobbyClickPending(game.state.id);
  try {
    const soon = await withinGrace(applied.value.stored);
    if (soon === null) await found.ack();
    const stored = soon ?? (await applied.value.stored);
    // The click's handler answers by `update`: the lobby message itself, at once or once acknowledged.
    await reply.answer(lobbyMessage(game.session.storedState, game.hostId));
    if (!stored.ok) await reply.privately(stored.error.message);
  } finally {
    output.lobbyClickDone(game.state.id);
  }
}
