import type { ActionRowData, MessageActionRowComponentData } from 'discord.js';
import type { Timers } from '../clock.ts';
import { chunkMarkdown } from '../chunk-markdown.ts';
import { MAX_CONTENT } from './presenters/format.ts';

/** The messages a streamed reply writes to (a thread or DM channel in the bot; a fake in tests). */
export interface StreamTarget {
  send(body: StreamBody): Promise<string>;
  edit(messageId: string, body: StreamBody): Promise<void>;
}

export interface StreamBody {
  readonly content: string;
  readonly components: ActionRowData<MessageActionRowComponentData>[];
}

export interface StreamedReplyOptions {
  /** Discord rate-limits edits; one per message per second keeps well inside it and reads smoothly. */
  readonly intervalMs?: number;
  /** Shown under the last message while the reply is still being written (e.g. a Stop button). */
  readonly whileRunning?: ActionRowData<MessageActionRowComponentData>[];
  readonly onError?: (error: unknown) => void;
}

/**
 * A reply that grows while it is written: each `update` gives the whole text so far; the messages
 * are edited at most once per interval with the newest text, split into further messages past
 * Discord's 2,000 characters without breaking code fences. `finish` writes the final text and
 * removes the running-only components.
 */
export class StreamedReply {
  private text = '';
  private readonly ids: string[] = [];
  private readonly written: string[] = [];
  private cancelScheduled: (() => void) | null = null;
  private lastWrite = Number.NEGATIVE_INFINITY;
  private chain: Promise<void> = Promise.resolve();
  private finished = false;
  private readonly intervalMs: number;

  constructor(
    private readonly target: StreamTarget,
    private readonly timers: Timers,
    private readonly options: StreamedReplyOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 1000;
  }

  /** Ids of the messages written so far, first to last. */
  get messageIds(): readonly string[] {
    return this.ids;
  }

  update(text: string): void {
    if (this.finished) return;
    this.text = text;
    if (this.cancelScheduled) return;
    const at = Math.max(this.timers.now(), this.lastWrite + this.intervalMs);
    this.cancelScheduled = this.timers.at(at, () => {
      this.cancelScheduled = null;
      void this.write();
    });
  }

  /** Writes the final text (still at most one write per interval) and resolves once it is on Discord. */
  async finish(text: string): Promise<void> {
    this.finished = true;
    this.text = text;
    this.cancelScheduled?.();
    this.cancelScheduled = null;
    const wait = this.lastWrite + this.intervalMs - this.timers.now();
    if (wait > 0) await new Promise<void>((resolve) => this.timers.at(this.timers.now() + wait, resolve));
    await this.write();
  }

  private write(): Promise<void> {
    this.chain = this.chain.then(() => this.writeNow()).catch((e: unknown) => this.options.onError?.(e));
    return this.chain;
  }

  private async writeNow(): Promise<void> {
    this.lastWrite = this.timers.now();
    const chunks = chunkMarkdown(this.text.trim() === '' ? '…' : this.text, MAX_CONTENT);
    for (const [i, content] of chunks.entries()) {
      const last = i === chunks.length - 1;
      const components = last && !this.finished ? (this.options.whileRunning ?? []) : [];
      const body: StreamBody = { content, components };
      // What was written, with whether it carried the running-only components.
      const key = `${components.length}:${body.content}`;
      const id = this.ids[i];
      if (id === undefined) {
        this.ids.push(await this.target.send(body));
        this.written.push(key);
      } else if (this.written[i] !== key) {
        await this.target.edit(id, body);
        this.written[i] = key;
      }
    }
  }
}
