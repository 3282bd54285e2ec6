import type { MessageCreateOptions } from 'discord.js';
import { getRole, type GameEventOf, type GameState } from '../../game/index.ts';
import { reasoningEntry } from '../../agents/directors-cut.ts';
import { chunkMarkdown } from '../../chunk-markdown.ts';
import { plainText } from '../../plain-text.ts';
import { MAX_CONTENT, NO_MENTIONS } from './format.ts';

/** Messages of earlier reasoning a graveyard opened mid-game catches up with (the cut holds the rest at the end). */
const CATCH_UP_MESSAGES = 5;

/** The name of a game's graveyard thread; the game id in it lets a restarted process find the thread again. */
export function graveyardThreadName(gameId: string): string {
  return `graveyard-${gameId.slice(0, 8)}`;
}

/** One AI seat's reasoning as the director's cut shows it, with who they are: the dead know the roles anyway. */
export function reasoningLine(state: GameState, reasoning: GameEventOf<'reasoning'>['payload']): string {
  const seat = state.players.find((p) => p.id === reasoning.playerId);
  const who = seat ? `**${plainText(seat.name)}**${seat.role ? ` (${getRole(seat.role).name})` : ''}` : '**An AI seat**';
  return `🧠 ${who} · ${reasoningEntry(reasoning, plainText)}`;
}

/** Text as messages Discord takes (2,000 characters each), mentioning nobody. */
export function graveyardMessages(text: string): MessageCreateOptions[] {
  return chunkMarkdown(text, MAX_CONTENT).map((content) => ({ content, allowedMentions: NO_MENTIONS }));
}

/** A new graveyard's first messages: the greeting, with the reasoning so far in the same message where it fits. */
export function openingMessages(state: GameState): MessageCreateOptions[] {
  const greeting = graveyardGreeting(state);
  const [first, ...rest] = catchUpMessages(state);
  const joined = first?.content ? `${greeting.content ?? ''}\n${first.content}` : null;
  if (joined === null || joined.length > MAX_CONTENT) return first ? [greeting, first, ...rest] : [greeting];
  return [{ content: joined, allowedMentions: NO_MENTIONS }, ...rest];
}

/** The first words in a new graveyard: who is here and what they see. */
function graveyardGreeting(state: GameState): MessageCreateOptions {
  const who = state.settings.rules.spectators ? 'The dead and spectators' : 'The dead';
  return {
    content: `👻 **The graveyard.** ${who} talk here freely and read each AI player's private reasoning, phase by phase. The living cannot read this thread.`,
    allowedMentions: NO_MENTIONS,
  };
}

/** The reasoning recorded before the graveyard opened, the latest of it when there is much. */
function catchUpMessages(state: GameState): MessageCreateOptions[] {
  const lines = state.log.flatMap((e) => (e.type === 'reasoning' ? [reasoningLine(state, e.payload)] : []));
  if (lines.length === 0) return [];
  const messages = graveyardMessages(lines.join('\n'));
  if (messages.length <= CATCH_UP_MESSAGES) return messages;
  return [
    { content: "🧠 Earlier reasoning is in the director's cut at the end; the latest:", allowedMentions: NO_MENTIONS },
    ...messages.slice(-CATCH_UP_MESSAGES),
  ];
}
