import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reply } from '../../../scripts/fakes/llm/fake-llm-server.ts';
import { messageText } from '../../../scripts/fakes/discord/index.ts';
import { startEditorWorld, type EditorWorld } from './editor-world.ts';

let e: EditorWorld;
beforeEach(async () => {
  e = await startEditorWorld();
});
afterEach(() => e.close());

describe('/persona edit: when the model fails', () => {
  it("GIVEN an overloaded model, then a connection cut mid-answer WHEN alice writes THEN each reply is one plain sentence, and the provider's words go to the log only", async () => {
    const thread = await e.openThread(await e.persona('Ada Lovelace'));
    const lastReply = () => messageText(e.botMessages(thread).at(-1)!);
    // The bot's messages in the thread once a reply (its one message) has ended with a warning.
    const warned = (count: number) => e.botMessages(thread).length === count && lastReply().includes('⚠️');

    e.fake.enqueue(reply.status(529, 'Overloaded'));
    e.w.sim.user('alice').say(thread, 'Make her bolder.');
    await e.w.sim.until(() => warned(2));
    await e.w.bot.idle();
    expect(lastReply()).toBe('⚠️ The model is overloaded right now. Send your message again in a minute; what was done so far is kept.');
    expect(e.w.log.warnings.some((w) => w.includes('529') && w.includes('overloaded_error'))).toBe(true);

    e.fake.enqueue(reply.text('She will now speak first in every', { cutAfterEvents: 4 }));
    e.w.sim.user('alice').say(thread, 'Try again.');
    await e.w.sim.until(() => warned(3));
    await e.w.bot.idle();
    expect(lastReply()).toMatch(
      /⚠️ The connection to the model was lost mid-answer\. Send your message again; what was done so far is kept\.$/,
    );
    expect(lastReply()).not.toContain('terminated');
    expect(e.w.log.warnings.some((w) => w.includes('network: terminated'))).toBe(true);
  });
});
