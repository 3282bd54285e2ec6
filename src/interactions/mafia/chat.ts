import type { Message } from 'discord.js';
import * as engine from '../../game/index.ts';
import { NO_MENTIONS } from '../../discord/presenters/format.ts';
import { noteToAuthor } from '../../discord/author-note.ts';
import type { MafiaDeps } from './context.ts';

export const DEAD_NOT_TAKEN =
  'You are dead: what you write in the game channel is not part of the game any more. Watch quietly until it ends.';

const TOWN_PHASES = new Set<engine.Phase>(['dawn', 'day', 'defense', 'vote', 'last_words']);

/** People's messages in the game channel (town talk, last words) and the Mafia thread enter the transcript. */
export async function chat(m: Message, deps: MafiaDeps): Promise<void> {
  if (m.author.bot || m.webhookId || !m.content.trim()) return;
  if (!m.inGuild()) {
    await mafiaByDm(m, deps);
    return;
  }
  const thread = m.channel.isThread() ? m.channel : null;
  const game = await deps.liveGames.forChannel(m.channelId, thread?.parentId ?? null);
  if (!game) return;
  const state = game.state;
  const player = state.players.find((p) => p.kind === 'human' && p.userId === m.author.id);
  if (!player || state.phase === 'lobby' || state.phase === 'ended') return;
  let channel: engine.SpeechChannel;
  if (thread) channel = 'mafia';
  else if (state.phase === 'last_words' && state.lynchedToday === player.id) channel = 'last_words';
  else if (TOWN_PHASES.has(state.phase)) channel = 'town';
  else return;
  const text = m.content.slice(0, engine.MAX_SPEECH_LENGTH);
  // The message id goes with the words, so the author's later edit or deletion finds them.
  const spoken = await game.submit((s, at) => engine.speak(s, { playerId: player.id, channel, text, at, ref: m.id }));
  if (spoken.ok && text.length < m.content.length) {
    await noteToAuthor(m, `Only the first ${engine.MAX_SPEECH_LENGTH.toLocaleString('en')} characters of that message reach the game.`);
  }
  if (!spoken.ok && spoken.error.code === 'chat_limit' && saidOnce(`${state.id}:${String(state.day)}:${state.phase}:${m.author.id}`)) {
    await noteToAuthor(m, spoken.error.message);
  }
  // A trial's defense: only the defendant speaks; the others are told once per defense why their words did not count.
  if (
    !spoken.ok &&
    spoken.error.code === 'wrong_phase' &&
    state.phase === 'defense' &&
    saidOnce(`${state.id}:defense:${state.day}:${state.trial.defendant ?? ''}:${m.author.id}`)
  ) {
    await noteToAuthor(m, spoken.error.message);
  }
  if (spoken.ok || spoken.error.code !== 'dead') return;
  if (!thread) deps.liveGames.output.mute(game, m.author.id);
  try {
    await m.author.send({ content: DEAD_NOT_TAKEN, allowedMentions: NO_MENTIONS });
  } catch {
    // DMs closed: the mute (where allowed) says it instead.
  }
}

/** Limit notes said this process, one per person and phase; past NOTES_KEPT the table starts over (at worst a note said twice). */
const NOTES_KEPT = 10_000;
const noted = new Set<string>();
function saidOnce(key: string): boolean {
  if (noted.has(key)) return false;
  if (noted.size >= NOTES_KEPT) noted.clear();
  noted.add(key);
  return true;
}

/** A game whose Mafia have no thread: a living Mafia's DM to the bot is their team chat (the output relays it to the others). */
async function mafiaByDm(m: Message, deps: MafiaDeps): Promise<void> {
  // Just after a start, the running games may still be loading: the DM waits for them.
  await deps.liveGames.loaded();
  const game = deps.liveGames.mafiaChatByDmOf(m.author.id);
  const player = game?.state.players.find((p) => p.userId === m.author.id);
  if (!game || !player) return;
  const text = m.content.slice(0, engine.MAX_SPEECH_LENGTH);
  const spoken = await game.submit((s, at) => engine.speak(s, { playerId: player.id, channel: 'mafia', text, at, ref: m.id }));
  if (!spoken.ok) await m.reply({ content: spoken.error.message, allowedMentions: NO_MENTIONS }).catch(() => undefined);
}
