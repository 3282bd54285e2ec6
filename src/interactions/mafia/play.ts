import { MessageFlags, type ButtonInteraction, type Message, type StringSelectMenuInteraction } from 'discord.js';
import * as engine from '../../game/index.ts';
import { customIdArgs, type InteractionRouter } from '../../discord/router.ts';
import type { LiveTable } from '../../discord/tables.ts';
import { NO_MENTIONS, nameOf } from '../../discord/presenters/format.ts';
import { NIGHT_SELECT, SKIP_VALUE } from '../../discord/presenters/night-action.ts';
import { NO_LYNCH_VALUE, UNVOTE_BUTTON, VOTE_SELECT } from '../../discord/presenters/vote.ts';
import type { MafiaDeps } from './context.ts';

const GAME_OVER = 'That game is over; this menu no longer does anything.';
export const DEAD_NOT_TAKEN =
  'You are dead: what you write in the game channel is not part of the game any more. Watch quietly until it ends.';

/**
 * Night picks and votes come in bursts (every player at the start of a phase) and each waits for
 * its game's earlier commands to be stored, so the bot acknowledges first (Discord's 3 s) and then
 * fills the ephemeral answer: the confirmation, or why nothing changed.
 */
async function acknowledge(i: StringSelectMenuInteraction | ButtonInteraction): Promise<void> {
  await i.deferReply({ flags: MessageFlags.Ephemeral });
}

async function answer(i: StringSelectMenuInteraction | ButtonInteraction, content: string): Promise<void> {
  await i.editReply({ content, allowedMentions: NO_MENTIONS });
}

/** The game a DM menu or vote message names; on failure the person has been told. */
async function gameOf(i: StringSelectMenuInteraction | ButtonInteraction, deps: MafiaDeps): Promise<LiveTable | null> {
  const table = await deps.tables.byGame(customIdArgs(i.customId)[0] ?? '');
  if (!table) await answer(i, GAME_OVER);
  return table;
}

/** A pick from the night menu in a DM: the engine decides whether it stands. */
async function nightSelect(i: StringSelectMenuInteraction, deps: MafiaDeps): Promise<void> {
  await acknowledge(i);
  const table = await gameOf(i, deps);
  if (!table) return;
  const value = i.values[0];
  const targetId = !value || value === SKIP_VALUE ? null : value;
  const acted = await table.submit((s, at) => engine.act(s, { actorId: i.user.id, targetId, at }));
  if (!acted.ok) return answer(i, acted.error.message);
  await answer(i, targetId ? `Noted: ${nameOf(table.state, targetId)}. You can change your mind until dawn.` : 'Noted: nothing tonight.');
}

async function voteSelect(i: StringSelectMenuInteraction, deps: MafiaDeps): Promise<void> {
  await acknowledge(i);
  const table = await gameOf(i, deps);
  if (!table) return;
  const value = i.values[0] ?? '';
  const targetId = value === NO_LYNCH_VALUE ? 'no_lynch' : value;
  const cast = await table.submit((s, at) => engine.vote(s, { voterId: i.user.id, targetId, at }));
  if (!cast.ok) return answer(i, cast.error.message);
  await answer(i, targetId === 'no_lynch' ? 'Your vote: no lynch.' : `Your vote: ${nameOf(table.state, targetId)}.`);
}

async function unvoteButton(i: ButtonInteraction, deps: MafiaDeps): Promise<void> {
  await acknowledge(i);
  const table = await gameOf(i, deps);
  if (!table) return;
  const withdrawn = await table.submit((s, at) => engine.unvote(s, { voterId: i.user.id, at }));
  if (!withdrawn.ok) return answer(i, withdrawn.error.message);
  await answer(i, 'Your vote is withdrawn.');
}

const TOWN_PHASES = new Set<engine.Phase>(['dawn', 'day', 'vote', 'last_words']);

/** People's messages in the game channel (town talk, last words) and the Mafia thread enter the transcript. */
async function chat(m: Message, deps: MafiaDeps): Promise<void> {
  if (m.author.bot || m.webhookId || !m.inGuild() || !m.content.trim()) return;
  const thread = m.channel.isThread() ? m.channel : null;
  const table = await deps.tables.forChannel(m.channelId, thread?.parentId ?? null);
  if (!table) return;
  const state = table.state;
  const player = state.players.find((p) => p.kind === 'human' && p.userId === m.author.id);
  if (!player || state.phase === 'lobby' || state.phase === 'ended') return;
  let channel: engine.SpeechChannel;
  if (thread) channel = 'mafia';
  else if (state.phase === 'last_words' && state.lynchedToday === player.id) channel = 'last_words';
  else if (TOWN_PHASES.has(state.phase)) channel = 'town';
  else return;
  const text = m.content.slice(0, engine.MAX_SPEECH_LENGTH);
  const spoken = await table.submit((s, at) => engine.speak(s, { playerId: player.id, channel, text, at }));
  if (spoken.ok || spoken.error.code !== 'dead') return;
  if (!thread) deps.tables.output.mute(table, m.author.id);
  try {
    await m.author.send({ content: DEAD_NOT_TAKEN, allowedMentions: NO_MENTIONS });
  } catch {
    // DMs closed: the mute (where allowed) says it instead.
  }
}

/** Night menus, the vote message's select and button, and the messages people type during a game. */
export function registerPlay(router: InteractionRouter, deps: MafiaDeps): void {
  router.onSelect(NIGHT_SELECT, (i) => nightSelect(i, deps));
  router.onSelect(VOTE_SELECT, (i) => voteSelect(i, deps));
  router.onButton(UNVOTE_BUTTON, (i) => unvoteButton(i, deps));
  router.onMessage((m) => chat(m, deps));
}
