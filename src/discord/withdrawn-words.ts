import type { Message, PartialMessage } from 'discord.js';
import { GameRepository } from '../db/game-repository.ts';
import type { GameStore } from '../db/game-store.ts';
import * as engine from '../game/index.ts';
import type { Change, GameError, GameState } from '../game/index.ts';
import type { Logger } from '../log.ts';
import type { Result } from '../result.ts';
import type { GameCommand, SessionError } from '../session/game-session.ts';
import { noteToAuthor } from './author-note.ts';

/**
 * People's edits and deletions of messages the game took (day chat, last words, the Mafia's thread
 * or DM chat). An edit while its phase lasts replaces the words; later the record keeps what was
 * said when it counted (the author is told once a game that deleting withdraws it). A deletion
 * withdraws the words at any moment, also from a game that has ended: nothing the bot shows or
 * stores from then on holds them.
 */

/** A live game as far as this needs it: its state, and its single writer. */
interface HeldGame {
  readonly state: GameState;
  submit(command: GameCommand): Promise<Result<Change, GameError | SessionError>>;
}

export interface WithdrawnWordsDeps {
  /** The live game this process holds whose channel, Mafia thread or Mafia DM chat took message `ref`. */
  readonly liveGameHolding: (channelId: string, ref: string, inDm: boolean) => HeldGame | undefined;
  readonly store: GameStore;
  readonly log: Logger;
  /** The bot's clock: when a game's record took a deletion. */
  readonly now: () => number;
}

/** Notes said this process, one per key (a person and game), bounded: at worst one is said twice. */
const told = new Set<string>();
const MAX_TOLD = 10_000;
function firstTime(key: string): boolean {
  if (told.has(key)) return false;
  if (told.size >= MAX_TOLD) told.clear();
  told.add(key);
  return true;
}

const LATE_EDIT =
  'Your edit came after its phase ended, so the game keeps the message as you first sent it. Delete the message to withdraw it from the game.';

/** MESSAGE_UPDATE of a message the game took: its new words, if the update carries them. */
export async function messageEdited(deps: WithdrawnWordsDeps, message: Message | PartialMessage): Promise<void> {
  // A partial update (a link's embed resolved) says nothing of the words; nor do others' messages.
  if (message.partial || message.author.bot || message.webhookId) return;
  const game = deps.liveGameHolding(message.channelId, message.id, !message.inGuild());
  if (!game) return;
  // Edited down to nothing (an attachment left): the words are withdrawn.
  if (!message.content.trim()) {
    await withdraw(deps, game, [message.id]);
    return;
  }
  const text = message.content.slice(0, engine.MAX_SPEECH_LENGTH);
  const edited = await game.submit((s, at) => engine.editSpeech(s, { ref: message.id, text, at }));
  if (edited.ok) {
    if (text.length < message.content.length)
      await noteToAuthor(
        message,
        `Only the first ${engine.MAX_SPEECH_LENGTH.toLocaleString('en')} characters of that message reach the game.`,
      );
    return;
  }
  const key = `${game.state.id}:${message.author.id}`;
  if (edited.error.code === 'wrong_phase' && firstTime(`late:${key}`)) await noteToAuthor(message, LATE_EDIT);
  else if (edited.error.code === 'chat_limit' && firstTime(`limit:${key}:${String(game.state.day)}:${game.state.phase}`))
    await noteToAuthor(message, `${edited.error.message} Your edit did not reach the game.`);
}

/**
 * MESSAGE_DELETE or MESSAGE_DELETE_BULK in a channel: the words of those the game took are
 * withdrawn, from the live game of that channel or, once a game has ended, from its stored record.
 */
export async function messagesDeleted(deps: WithdrawnWordsDeps, channelId: string, ids: readonly string[], inDm: boolean): Promise<void> {
  const games = new Set(ids.flatMap((id) => deps.liveGameHolding(channelId, id, inDm) ?? []));
  for (const game of games) await withdraw(deps, game, ids);
  if (games.size === 0 && !inDm) await withdrawFromEnded(deps, channelId, ids);
}

async function withdraw(deps: WithdrawnWordsDeps, game: HeldGame, refs: readonly string[]): Promise<void> {
  const deleted = await game.submit((s, at) => engine.deleteSpeeches(s, { refs, at }));
  if (!deleted.ok) deps.log.warn(`game ${game.state.id}: deleted messages not withdrawn: ${deleted.error.message}`);
}

/** Ended games written one at a time: each is read, changed and stored on its own compare-and-set. */
let endedWrites: Promise<void> = Promise.resolve();

function withdrawFromEnded(deps: WithdrawnWordsDeps, channelId: string, refs: readonly string[]): Promise<void> {
  const run = async () => {
    const repo = new GameRepository(deps.store);
    for (const gameId of await deps.store.endedGamesHolding(channelId, refs)) {
      const loaded = await repo.load(gameId);
      if (!loaded.ok) continue;
      const deleted = engine.deleteSpeeches(loaded.value, { refs, at: deps.now() });
      if (!deleted.ok || deleted.value.events.length === 0) continue;
      const saved = await repo.save(loaded.value, deleted.value.events, deleted.value.state);
      if (!saved.ok) deps.log.warn(`ended game ${gameId}: deleted messages not withdrawn (${saved.error})`);
    }
  };
  endedWrites = endedWrites.then(run, run);
  return endedWrites;
}
