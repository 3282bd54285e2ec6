import { ButtonStyle, ComponentType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { ManualTimers } from '../../src/clock.ts';
import { StreamedReply, type StreamBody, type StreamTarget } from '../../src/discord/streamed-reply.ts';

const STOP = [
  {
    type: ComponentType.ActionRow,
    components: [{ type: ComponentType.Button, style: ButtonStyle.Danger, label: 'Stop', customId: 'editor:stop:s1' }],
  },
] as const;

function fakeChannel() {
  const log: { op: 'send' | 'edit'; id: string; at: number; body: StreamBody }[] = [];
  const messages = new Map<string, StreamBody>();
  let next = 0;
  const timers = new ManualTimers(0);
  const target: StreamTarget = {
    send(body) {
      const id = `m${next++}`;
      messages.set(id, body);
      log.push({ op: 'send', id, at: timers.now(), body });
      return Promise.resolve(id);
    },
    edit(id, body) {
      messages.set(id, body);
      log.push({ op: 'edit', id, at: timers.now(), body });
      return Promise.resolve();
    },
  };
  return { log, messages, timers, target };
}

const flush = () => new Promise((r) => setImmediate(r));

describe('StreamedReply', () => {
  it('GIVEN text arriving many times a second WHEN streamed THEN the message is written at most once per second, always with the newest text', async () => {
    const { log, messages, timers, target } = fakeChannel();
    const reply = new StreamedReply(target, timers, { whileRunning: [...STOP] });
    let text = '';
    for (let ms = 0; ms <= 3000; ms += 50) {
      timers.advanceTo(ms);
      await flush();
      text += `w${ms} `;
      reply.update(text);
    }
    const finished = reply.finish(`${text}done`);
    // The last write was this very second: the final one waits for the next.
    timers.advanceTo(4000);
    await finished;
    const writes = log.map((l) => l.at);
    for (let i = 1; i < writes.length; i++) expect(writes[i]! - writes[i - 1]!).toBeGreaterThanOrEqual(1000);
    expect(writes.length).toBeLessThanOrEqual(5);
    expect(messages.get('m0')!.content).toBe(`${text}done`);
    expect(messages.get('m0')!.components).toEqual([]);
  });

  it('GIVEN a running reply WHEN it is written THEN the last message carries the Stop button until the reply finishes', async () => {
    const { messages, timers, target } = fakeChannel();
    const reply = new StreamedReply(target, timers, { whileRunning: [...STOP] });
    reply.update('Thinking about the voice…');
    timers.advanceTo(0);
    await flush();
    expect(messages.get('m0')!.components).toEqual(STOP);
    timers.advanceTo(5000);
    await reply.finish('Done.');
    expect(messages.get('m0')).toEqual({ content: 'Done.', components: [] });
  });

  it('GIVEN a reply that grows past 2,000 characters WHEN finished THEN it continues in further messages and only the last one had the button', async () => {
    const { messages, timers, target, log } = fakeChannel();
    const reply = new StreamedReply(target, timers, { whileRunning: [...STOP] });
    const long = Array.from({ length: 100 }, (_, i) => `Sentence ${i} about how the persona bluffs as Mafia.`).join('\n');
    reply.update(long.slice(0, 1500));
    timers.advanceTo(0);
    await flush();
    reply.update(long);
    timers.advanceTo(1000);
    await flush();
    expect(messages.size).toBe(3);
    expect(messages.get('m0')!.components).toEqual([]);
    expect(messages.get('m2')!.components).toEqual(STOP);
    timers.advanceTo(2000);
    await reply.finish(long);
    for (const m of messages.values()) expect(m.content.length).toBeLessThanOrEqual(2000);
    expect([...messages.values()].map((m) => m.content).join('\n')).toBe(long);
    expect([...messages.values()].every((m) => m.components.length === 0)).toBe(true);
    expect(reply.messageIds).toEqual(['m0', 'm1', 'm2']);
    expect(log.filter((l) => l.op === 'send')).toHaveLength(3);
  });
});
