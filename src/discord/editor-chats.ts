import {
  ButtonStyle,
  ComponentType,
  PermissionFlagsBits,
  type ActionRowData,
  type ButtonInteraction,
  type Client,
  type Message,
  type MessageActionRowComponentData,
  type SendableChannels,
} from 'discord.js';
import type { EditorService } from '../agents/editor/index.ts';
import type { EditorReplies } from '../db/editor-replies.ts';
import { realTimers, type Timers } from '../clock.ts';
import type { Logger } from '../log.ts';
import type { Actor } from '../persona/permissions.ts';
import { closeInterruptedReplies, trackReply } from './open-replies.ts';
import { EditorTranscript } from './presenters/editor-transcript.ts';
import { NO_MENTIONS } from './presenters/format.ts';
import type { Reply } from './responder.ts';
import { StreamedReply, type StreamTarget } from './streamed-reply.ts';

export const EDITOR_STOP_PREFIX = 'editor-stop';

export interface EditorChatsDeps {
  readonly editor: EditorService;
  /** Where each reply being written is noted, so a start-up after a crash can close it. */
  readonly replies: EditorReplies;
  readonly log: Logger;
  /** Real time by default: the stream is paced on the wall clock, whatever clock games use. */
  readonly timers?: Timers;
  /** At most one edit of the reply per this many ms (Discord-friendly default: 1 s). */
  readonly intervalMs?: number;
  /** Whether a running game reads this person's DMs as their Mafia team's chat: then the game has them, not the editor. */
  readonly dmsTakenByGame?: (userId: string) => boolean;
  /** Sharding: whether this process serves a place (guild, or null for DMs); replies elsewhere are another process's. */
  readonly ownsPlace?: (guildId: string | null) => boolean;
  /** Settles once the running games are loaded at start-up (until then `dmsTakenByGame` cannot know). */
  readonly gamesLoaded?: () => Promise<void>;
}

export const DM_TAKEN_BY_GAME =
  "While your game runs, what you write in this DM is your Mafia team's chat, so the persona editor does not read it. " +
  'Open the editor in a server thread meanwhile (`/persona edit` there), or come back here after the game.';

/** Sessions remembered as told that a game has their DM; past it the table starts over (at worst one told twice). */
const TOLD_TAKEN_KEPT = 10_000;

/** Discord shows "is typing…" for about 10 s per call; renew it a little sooner while the agent works. */
const TYPING_RENEW_MS = 8000;

/**
 * The editor's conversations on Discord: every message the owner writes in an editor thread (or
 * DM) is a user turn; the reply streams into one message (edited at most once per interval, with
 * tool calls as compact lines and a Stop button), continued in further messages past 2,000
 * characters. Messages sent during a run wait their turn in the editor's queue.
 */
export class EditorChats {
  /** Runs in progress or queued, per session, so Stop (and chat-clear) can abort them all (bound: sessions with a run; a session's entry goes with its last run). */
  private readonly runs = new Map<string, Set<AbortController>>();
  private readonly inFlight = new Set<Promise<void>>();
  /** Sessions told that a game has their DM for now, so it is said once (bound: TOLD_TAKEN_KEPT). */
  private readonly toldTaken = new Set<string>();

  /** Settles once the replies a crash left open are closed: no message is read before. */
  private interruptedClosed: Promise<void> = Promise.resolve();

  constructor(private readonly deps: EditorChatsDeps) {}

  /** Router message listener: anything else than the session owner's text in a bound channel is ignored. */
  async onMessage(message: Message): Promise<void> {
    if (message.author.bot || message.webhookId || message.content.trim() === '') return;
    await this.interruptedClosed;
    await this.deps.gamesLoaded?.();
    const session = await this.deps.editor.sessionInThread(message.channelId);
    if (!session || !session.active || session.ownerId !== message.author.id) return;
    if (!message.inGuild() && this.deps.dmsTakenByGame?.(message.author.id)) {
      if (!this.toldTaken.has(session.id)) {
        if (this.toldTaken.size >= TOLD_TAKEN_KEPT) this.toldTaken.clear();
        this.toldTaken.add(session.id);
        await message.reply({ content: DM_TAKEN_BY_GAME, allowedMentions: NO_MENTIONS }).catch(() => undefined);
      }
      return;
    }
    const work = this.run(session.id, message);
    this.inFlight.add(work);
    try {
      await work;
    } finally {
      this.inFlight.delete(work);
    }
  }

  /** The Stop button: aborts the running and queued messages of its session; what was done is kept. */
  async onStop(i: ButtonInteraction, reply: Reply): Promise<void> {
    const sessionId = i.customId.split(':')[1] ?? '';
    // By id, not by place: a reply keeps its button after its conversation moved elsewhere.
    const session = await this.deps.editor.session(sessionId, { userId: i.user.id, guildId: i.guildId, canManageServer: false });
    if (!session.ok) return reply.privately('Only the person who opened this editor can stop it.');
    const stopped = this.abort(sessionId);
    await reply.privately(stopped ? 'Stopping; what was done so far is kept.' : 'Nothing is running.');
  }

  /** Aborts every run of a session; true if there was one. */
  abort(sessionId: string): boolean {
    const runs = this.runs.get(sessionId);
    if (!runs || runs.size === 0) return false;
    for (const run of runs) run.abort();
    return true;
  }

  /** Tells the thread or DM a conversation left where it goes on; one that is gone or closed is skipped. */
  async tellMoved(client: Client, from: string, to: string): Promise<void> {
    try {
      const channel = await client.channels.fetch(from);
      if (!channel?.isSendable()) return;
      await channel.send({
        content: `This conversation moved to ${to}: write there. Messages here no longer reach the editor.`,
        allowedMentions: NO_MENTIONS,
      });
    } catch (e) {
      this.deps.log.warn(`the editor could not say in ${from} that the conversation moved: ${String(e)}`);
    }
  }

  /** At start-up: the replies the last run of the bot left mid-stream are closed; messages wait for it. */
  closeInterrupted(client: Client): Promise<void> {
    const closing = closeInterruptedReplies({
      client,
      replies: this.deps.replies,
      editor: this.deps.editor,
      log: this.deps.log,
      ...(this.deps.ownsPlace && { ownsPlace: this.deps.ownsPlace }),
    });
    this.interruptedClosed = closing.catch(() => undefined);
    return closing;
  }

  /** Resolves when no reply is being written (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private async run(sessionId: string, message: Message): Promise<void> {
    const channel = message.channel as SendableChannels;
    const controller = new AbortController();
    const runs = this.runs.get(sessionId) ?? new Set<AbortController>();
    runs.add(controller);
    this.runs.set(sessionId, runs);
    const transcript = new EditorTranscript();
    const onError = (e: unknown) => this.deps.log.warn(`editor reply in ${channel.id} could not be written: ${String(e)}`);
    const tracked = trackReply(channelTarget(channel), { replies: this.deps.replies, sessionId, channelId: channel.id }, onError);
    const reply = new StreamedReply(tracked.target, this.deps.timers ?? realTimers, {
      ...(this.deps.intervalMs !== undefined && { intervalMs: this.deps.intervalMs }),
      whileRunning: [stopRow(sessionId)],
      onError,
    });
    // The reply (and its Stop button) shows at once, before the model's first word.
    reply.update(transcript.render());
    const typing = keepTyping(channel, controller.signal);
    try {
      const result = await this.deps.editor.send(sessionId, actorOf(message), message.content, {
        signal: controller.signal,
        onEvent: (event) => {
          transcript.apply(event);
          if (event.type === 'queued') typing.pause();
          else if (event.type === 'done' || event.type === 'error') typing.stop();
          else typing.resume();
          reply.update(transcript.render());
        },
      });
      if (!result.ok) {
        transcript.apply({ type: 'error', code: result.error.code, message: result.error.message });
        const { code, detail } = result.error;
        // A bug of ours is an error; a provider's bad moment is a warning.
        if (detail !== undefined) this.deps.log[code === 'internal' ? 'error' : 'warn'](`editor session ${sessionId}: ${code}: ${detail}`);
      }
    } catch (e) {
      this.deps.log.error(`editor run for session ${sessionId} failed: ${String(e)}`);
      transcript.apply({
        type: 'error',
        code: 'internal',
        message: 'Something went wrong on our side; what was done so far is kept. Please try again.',
      });
    } finally {
      typing.stop();
      runs.delete(controller);
      if (runs.size === 0 && this.runs.get(sessionId) === runs) this.runs.delete(sessionId);
    }
    await reply.finish(transcript.render());
    await tracked.close();
  }
}

function actorOf(message: Message): Actor {
  return {
    userId: message.author.id,
    guildId: message.guildId,
    canManageServer: message.member?.permissions.has(PermissionFlagsBits.ManageGuild) ?? false,
  };
}

function stopRow(sessionId: string): ActionRowData<MessageActionRowComponentData> {
  return {
    type: ComponentType.ActionRow,
    components: [
      {
        type: ComponentType.Button,
        style: ButtonStyle.Secondary,
        label: 'Stop',
        emoji: '⏹️',
        customId: `${EDITOR_STOP_PREFIX}:${sessionId}`,
      },
    ],
  };
}

function channelTarget(channel: SendableChannels): StreamTarget {
  return {
    async send(body) {
      const sent = await channel.send({ content: body.content, components: body.components, allowedMentions: NO_MENTIONS });
      return sent.id;
    },
    async edit(messageId, body) {
      await channel.messages.edit(messageId, { content: body.content, components: body.components, allowedMentions: NO_MENTIONS });
    },
  };
}

/**
 * The typing indicator while the agent works (not while a message only waits in the queue); once the
 * run ends or is stopped it stays off, whatever the run still reports.
 */
function keepTyping(channel: SendableChannels, signal: AbortSignal): { pause(): void; resume(): void; stop(): void } {
  let timer: NodeJS.Timeout | null = null;
  let ended = false;
  const type = () => void channel.sendTyping().catch(() => undefined);
  const pause = () => {
    if (timer) clearInterval(timer);
    timer = null;
  };
  const stop = () => {
    ended = true;
    pause();
  };
  const resume = () => {
    if (timer || ended || signal.aborted) return;
    type();
    timer = setInterval(type, TYPING_RENEW_MS);
  };
  signal.addEventListener('abort', stop, { once: true });
  resume();
  return { pause, resume, stop };
}
