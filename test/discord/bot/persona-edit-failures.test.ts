import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { reply } from '../../../scripts/fakes/llm/fake-llm-server.ts';
import { messageText } from '../../../scripts/fakes/discord/index.ts';
import { startEditorWorld, type EditorWorld } from './editor-world.ts';
import { tidy } from './shared-world.ts';

/** One editor world for the file, its model's script reset before each test and alice's personas deleted after; the crash gets its own. */
let e: EditorWorld;
beforeAll(async () => {
  e = await startEditorWorld();
});
beforeEach(() => void e.fake.reset());
afterEach(() => tidy(e.w));
afterAll(() => e.close());

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

  it('GIVEN a failed answer WHEN alice looks at the history and writes again THEN the failure is listed there, and the model is not shown it', async () => {
    const thread = await e.openThread(await e.persona('Ada Lovelace'));
    const alice = e.w.sim.user('alice');
    e.fake.enqueue(reply.status(529, 'Overloaded'), reply.text('Bolder it is.'));
    alice.say(thread, 'Make her bolder.');
    await e.w.sim.until(() => e.botMessages(thread).length === 2 && messageText(e.botMessages(thread)[1]!).includes('⚠️'));
    await e.w.bot.idle();

    const history = await alice.slash(thread, 'persona', { subcommand: 'chat-history', options: {} }).ephemeral();
    expect(messageText(history)).toBe(
      '**You:** Make her bolder.\n⚠️ The model is overloaded right now. Send your message again in a minute; what was done so far is kept.',
    );
    alice.say(thread, 'Try again.');
    await e.w.sim.until(() => messageText(e.botMessages(thread).at(-1)!).includes('Bolder it is.'));
    await e.w.bot.idle();
    expect(e.fake.last.transcript.map((turn) => turn.text)).toEqual(['Make her bolder.', 'Try again.']);
  });

  it('GIVEN a message waiting behind a slow answer WHEN alice presses Stop and writes again THEN the model never sees the stopped message, and the history marks it unsent', async () => {
    const thread = await e.openThread(await e.persona('Ada Lovelace'));
    const alice = e.w.sim.user('alice');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    e.fake.handle(async (request) => {
      if (request.lastUserText === 'Rewrite everything.') await gate;
      return reply.text(`Done: ${request.lastUserText}`);
    });
    alice.say(thread, 'Rewrite everything.');
    await e.w.sim.until(() => e.fake.requests.length === 1);
    alice.say(thread, 'And the tactics too.');
    const queued = await e.w.sim.until(() => e.botMessages(thread).find((m) => messageText(m).includes('Queued behind 1')));
    const session = await e.w.db.prisma.editorSession.findFirstOrThrow({ where: { threadId: thread.id } });
    expect(messageText(await alice.click(queued, `editor-stop:${session.id}`).ephemeral())).toMatch(/Stopping/);
    release();
    await e.w.sim.until(() => e.botMessages(thread).filter((m) => messageText(m).includes('Stopped')).length === 2);
    await e.w.bot.idle();

    alice.say(thread, 'Just the voice, then.');
    await e.w.sim.until(() => messageText(e.botMessages(thread).at(-1)!).includes('Done: Just the voice, then.'));
    await e.w.bot.idle();
    const said = e.fake.last.transcript.map((turn) => turn.text);
    expect(said).not.toContain('And the tactics too.');
    expect(said).toContain('Just the voice, then.');
    const history = await alice.slash(thread, 'persona', { subcommand: 'chat-history', options: {} }).ephemeral();
    expect(messageText(history)).toContain('**You:** And the tactics too. *(stopped before it was sent)*');
  });

  it('GIVEN a reply mid-stream WHEN the bot crashes and starts again THEN the reply loses its Stop button and says it was interrupted, and the history records it', async () => {
    // A world of its own: the crashed bot is never stopped, and its stalled call would outlive the test in a shared one.
    const own = await startEditorWorld();
    onTestFinished(() => own.close());
    const thread = await own.openThread(await own.persona('Ada Lovelace'));
    const alice = own.w.sim.user('alice');
    // The answer's first words come, then nothing: the bot dies while it waits for the rest.
    own.fake.enqueue(reply.text('Her voice is now gruff and clipped, with short sentences.', { stallAfterEvents: 4 }));
    alice.say(thread, 'Make her gruff.');
    const streaming = await own.w.sim.until(() =>
      own.botMessages(thread).find((m) => messageText(m).startsWith('Her') && m.components.length > 0),
    );
    alice.say(thread, 'And the tactics.');
    const queued = await own.w.sim.until(() => own.botMessages(thread).find((m) => messageText(m).includes('Queued behind 1')));

    await own.w.crash();

    const now = (id: string) => own.w.sim.messagesIn(thread).find((m) => m.id === id)!;
    await own.w.sim.until(() => now(streaming.id).components.length === 0 && now(queued.id).components.length === 0);
    expect(messageText(now(queued.id))).toBe(
      '⚠️ Interrupted by a restart of the bot. Send your message again; what was done so far is kept.',
    );
    expect(messageText(now(streaming.id))).toMatch(
      /^Her[\s\S]*\n\n⚠️ Interrupted by a restart of the bot\. Send your message again; what was done so far is kept\.$/,
    );
    // One interruption for the conversation: the queued message had not begun.
    const history = await alice.slash(thread, 'persona', { subcommand: 'chat-history', options: {} }).ephemeral();
    expect(messageText(history)).toBe(
      '**You:** Make her gruff.\n⚠️ Interrupted by a restart of the bot. Send your message again; what was done so far is kept.',
    );
  });
});
