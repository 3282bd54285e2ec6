import type { EditorEvent } from '../../agents/editor/events.ts';
import { cut } from './format.ts';

type Part =
  | { readonly kind: 'text'; text: string }
  | { readonly kind: 'tool'; readonly callId: string; readonly name: string; status: 'running' | 'ok' | 'failed'; reason: string };

/**
 * The editor's reply as it is being written: its text as it streams, each tool call as one
 * compact line ("🔧 update_voice ✓", "🔧 run_test ✗ reason") in the place it happened.
 */
export class EditorTranscript {
  private readonly parts: Part[] = [];
  private waiting = 0;
  private ending = '';

  apply(event: EditorEvent): void {
    switch (event.type) {
      case 'queued':
        this.waiting = event.ahead;
        return;
      case 'text_delta': {
        this.waiting = 0;
        const last = this.parts.at(-1);
        if (last?.kind === 'text') last.text += event.text;
        else this.parts.push({ kind: 'text', text: event.text });
        return;
      }
      case 'text_done':
        return;
      case 'tool_call':
        this.waiting = 0;
        this.parts.push({ kind: 'tool', callId: event.callId, name: event.name, status: 'running', reason: '' });
        return;
      case 'tool_result': {
        const call = this.parts.find((p): p is Extract<Part, { kind: 'tool' }> => p.kind === 'tool' && p.callId === event.callId);
        if (!call) return;
        call.status = event.isError ? 'failed' : 'ok';
        call.reason = event.isError ? firstLine(event.text) : '';
        return;
      }
      case 'done':
        this.waiting = 0;
        if (event.reason === 'stopped') this.ending = '⏹️ *Stopped. What was done so far is kept.*';
        else if (event.reason === 'round_cap') this.ending = '-# Reached the limit of tool rounds for one message.';
        return;
      case 'error':
        this.waiting = 0;
        this.ending = `⚠️ ${event.message}`;
        return;
    }
  }

  /** True once anything is worth showing. */
  get started(): boolean {
    return this.parts.length > 0 || this.ending !== '' || this.waiting > 0;
  }

  render(): string {
    const lines: string[] = [];
    if (this.waiting > 0) lines.push(`⏳ Queued behind ${this.waiting} earlier message${this.waiting === 1 ? '' : 's'}…`);
    let text = '';
    for (const part of this.parts) {
      if (part.kind === 'text') {
        text += part.text;
        continue;
      }
      const mark = part.status === 'running' ? '…' : part.status === 'ok' ? '✓' : `✗ ${part.reason}`;
      text = `${text.replace(/\s+$/, '')}${text.trim() === '' ? '' : '\n'}🔧 ${part.name} ${mark}\n`;
    }
    if (text.trim() !== '') lines.push(text.trim());
    if (this.ending) lines.push(this.ending);
    return lines.join('\n\n');
  }
}

function firstLine(text: string): string {
  return cut((text.split('\n')[0] ?? '').trim(), 160);
}
