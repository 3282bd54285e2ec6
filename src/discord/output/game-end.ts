import { EmbedBuilder, escapeMarkdown, ThreadAutoArchiveDuration } from 'discord.js';
import { chunkMarkdown } from '../../chunk-markdown.ts';
import type { GameState } from '../../game/index.ts';
import { gameReport } from '../../report/files.ts';
import { COLOURS, MAX_CONTENT, NO_MENTIONS } from '../presenters/format.ts';
import type { ChannelLoss, OutputGame, Sends } from './sends.ts';

/** Discord takes at most ten files on one message. */
const MAX_FILES = 10;
/** Pieces of the director's cut shown in its thread (the file holds all of it), and per message. */
const MAX_CUT_CHUNKS = 20;
const CUT_CHUNKS_PER_MESSAGE = 3;

/** The director's cut: a message with the Markdown file, and a thread on it with the text; the thread's id. */
export async function directorsCut(sends: Sends, game: OutputGame, state: GameState): Promise<string | null> {
  const channel = await sends.textChannel(game.channelId);
  const files = await gameReport(state, channel ? `#${channel.name}` : 'Mafia');
  const markdown = files?.[0];
  if (!channel || !files || !markdown) return null;
  const message = await channel.send({
    content: "🎬 **The director's cut**: every AI seat's private reasoning beside the public record.",
    files: files.slice(0, MAX_FILES).map((f) => ({ attachment: f.data, name: f.name })),
    allowedMentions: NO_MENTIONS,
  });
  const thread = await message.startThread({
    name: `Director's cut ${state.id.slice(0, 8)}`,
    autoArchiveDuration: ThreadAutoArchiveDuration.OneDay,
  });
  const chunks = chunkMarkdown(markdown.data.toString('utf8'), MAX_CONTENT);
  const shown = chunks.slice(0, MAX_CUT_CHUNKS);
  // Each piece is an embed, three to a message (Discord's 6,000 characters of embeds): a third of the messages.
  for (let i = 0; i < shown.length; i += CUT_CHUNKS_PER_MESSAGE) {
    const embeds = shown
      .slice(i, i + CUT_CHUNKS_PER_MESSAGE)
      .map((chunk) => new EmbedBuilder().setColor(COLOURS.info).setDescription(chunk));
    await thread.send({ embeds, allowedMentions: NO_MENTIONS });
  }
  if (chunks.length > MAX_CUT_CHUNKS) await thread.send({ content: 'The rest is in the attached file.', allowedMentions: NO_MENTIONS });
  return thread.id;
}

/** A game cancelled because its channel is gone: each person hears it by DM, with the reason. */
export async function tellPlayersCancelled(sends: Sends, state: GameState, loss: ChannelLoss): Promise<void> {
  const content =
    loss.why === 'deleted'
      ? '🛑 Your Mafia game was cancelled: its channel was deleted. Nothing more will happen in it.'
      : `🛑 Your Mafia game in **${escapeMarkdown(loss.server)}** was cancelled: I was removed from the server. Nothing more will happen in it.`;
  for (const p of state.players) {
    if (p.kind !== 'human' || !p.userId) continue;
    try {
      await sends.client.users.send(p.userId, {
        content,
        allowedMentions: NO_MENTIONS,
      });
    } catch (error) {
      sends.log.warn(`${state.id}: cancellation DM to ${p.name} not sent: ${String(error)}`);
    }
  }
}
