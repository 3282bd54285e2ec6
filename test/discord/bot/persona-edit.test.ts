import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../../src/llm/anthropic-provider.ts';
import type { Persona } from '../../../src/persona/persona.ts';
import { content } from '../../persona/fixtures.ts';
import { startFakeAnthropic } from '../../../scripts/fakes/llm/fake-anthropic.ts';
import { reply, type FakeLlmServer } from '../../../scripts/fakes/llm/fake-llm-server.ts';
import { messageText, type SimMessage } from '../../../scripts/fakes/discord/index.ts';
import { startWorld, type World } from './harness.ts';
import { appended, fromNow, tidy } from './shared-world.ts';

/** One world and one editor model for the file; each test gets a fresh Ada (deleted after it, her editor with her) and a fresh script. */
let w: World;
let fake: FakeLlmServer;
let ada: Persona;

beforeAll(async () => {
  fake = await startFakeAnthropic();
  const provider = createAnthropicProvider({ apiKey: 'test-key', baseURL: fake.baseURL, timeoutMs: 5_000, maxRetries: 0, logLevel: 'off' });
  w = await startWorld({ editorLlm: { provider, model: 'editor-model' }, model: fake });
});
beforeEach(async () => {
  fake.reset();
  const aliceId = w.sim.user('alice').id;
  const created = await w.personas.create(
    { userId: aliceId, guildId: null, canManageServer: false },
    { scope: { kind: 'private' }, content: content({}, 'Ada Lovelace') },
  );
  if (!created.ok) throw new Error(created.error.message);
  ada = created.value;
});
afterEach(() => tidy(w));
afterAll(() => w.close());

const lastBotMessage = (thread: { id: string }): SimMessage =>
  w.sim
    .messagesIn(thread)
    .filter((m) => m.authorId === w.client.user.id)
    .at(-1)!;

async function sessionId(thread: { id: string }): Promise<string> {
  const rows = await w.db.prisma.editorSession.findMany({ where: { threadId: thread.id, active: true } });
  return rows[0]!.id;
}

/** The thread the editor opened on Ada (earlier tests' Adas have threads of that name too). */
async function openEditor(): Promise<{ id: string }> {
  const opened = await w.sim
    .user('alice')
    .slash('other', 'persona', { subcommand: 'edit', options: { persona: ada.id } })
    .reply();
  expect(messageText(opened)).toMatch(/The editor is open in <#\d+>/);
  const id = /The editor is open in <#(\d+)>/.exec(messageText(opened))![1]!;
  expect(w.sim.channel(id).name).toContain('Ada Lovelace');
  return { id };
}

describe('/persona edit: chatting with the editor agent in a private thread', () => {
  it('GIVEN alice edits her persona WHEN she asks for a change in the thread THEN the reply streams there with the tool call shown, and the persona is changed', async () => {
    const failed = appended(() => w.sim.failedRequests());
    const thread = await openEditor();
    expect(w.sim.threadMembers(thread)).toContain(w.sim.user('alice').id);
    fake.enqueue(
      reply.tool('update_style_notes', { decisionStyle: 'Numbers first, always.' }, { text: 'Making her decide by the numbers.' }),
      reply.text('Done: she now decides by the numbers.'),
    );

    w.sim.user('alice').say(thread, 'Make her decide by the numbers.');
    await w.sim.until(() => messageText(lastBotMessage(thread)).includes('Done: she now decides'));
    await w.bot.idle();

    const answer = lastBotMessage(thread);
    expect(messageText(answer)).toContain('🔧 update_style_notes ✓');
    expect(answer.components).toEqual([]);
    const stored = await w.personas.get({ userId: w.sim.user('alice').id, guildId: null, canManageServer: false }, ada.id);
    expect(stored.ok && stored.value.profile.decisionStyle).toBe('Numbers first, always.');
    expect(failed()).toEqual([]);
  });

  it('GIVEN a conversation WHEN alice asks for its history and then clears it THEN she sees the turns, and the next history is empty', async () => {
    const thread = await openEditor();
    fake.enqueue(reply.text('Hello! What shall we change about Ada?'));
    w.sim.user('alice').say(thread, 'Hi');
    await w.sim.until(() => messageText(lastBotMessage(thread)).includes('What shall we change'));
    await w.bot.idle();

    const history = await w.sim.user('alice').slash(thread, 'persona', { subcommand: 'chat-history', options: {} }).ephemeral();
    expect(messageText(history)).toContain('**You:** Hi');
    expect(messageText(history)).toContain('**Editor:** Hello! What shall we change about Ada?');
    expect(messageText(await w.sim.user('alice').slash(thread, 'persona', { subcommand: 'chat-clear', options: {} }).ephemeral())).toMatch(
      /new conversation/,
    );
    expect(
      messageText(await w.sim.user('alice').slash(thread, 'persona', { subcommand: 'chat-history', options: {} }).ephemeral()),
    ).toMatch(/Nothing said yet/);
  });

  it("GIVEN alice's private persona WHEN bob tries to edit it THEN he is refused privately, no thread is opened and the model is never called", async () => {
    const threads = fromNow(() => w.sim.threadsOf('other'));
    const refused = await w.sim
      .user('bob')
      .slash('other', 'persona', { subcommand: 'edit', options: { persona: ada.id } })
      .ephemeral();
    expect(messageText(refused)).toMatch(/no persona/i);
    expect(threads()).toHaveLength(0);
    const built = await w.sim
      .user('bob')
      .slash('other', 'persona', { subcommand: 'edit', options: { persona: 'Sherlock Holmes' } })
      .ephemeral();
    expect(messageText(built)).toMatch(/read-only|duplicate/i);
    expect(threads()).toHaveLength(0);
    expect(fake.requests).toHaveLength(0);
  });

  it('GIVEN a slow answer and a message sent meanwhile WHEN alice presses Stop THEN both runs end as stopped, and nothing she wrote is lost', async () => {
    const thread = await openEditor();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    fake.handle(async () => {
      await gate;
      return reply.text('Too late.');
    });
    w.sim.user('alice').say(thread, 'Rewrite everything.');
    await w.sim.until(() => fake.requests.length === 1);
    w.sim.user('alice').say(thread, 'And the tactics too.');
    const running = await w.sim.until(() =>
      w.sim.messagesIn(thread).find((m) => m.authorId === w.client.user.id && m.components.length > 0),
    );
    const stopped = await w.sim
      .user('alice')
      .click(running, `editor-stop:${await sessionId(thread)}`)
      .ephemeral();
    expect(messageText(stopped)).toMatch(/Stopping/);
    release();
    await w.sim.until(() => w.sim.messagesIn(thread).filter((m) => messageText(m).includes('Stopped')).length === 2);
    await w.bot.idle();
    const history = await w.sim.user('alice').slash(thread, 'persona', { subcommand: 'chat-history', options: {} }).ephemeral();
    expect(messageText(history)).toContain('**You:** Rewrite everything.');
    expect(messageText(history)).toContain('**You:** And the tactics too.');
  });

  it('GIVEN a slow answer and a message queued behind it WHEN alice presses Stop THEN no typing indicator or new message follows for either run', async () => {
    const thread = await openEditor();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    fake.handle(async () => {
      await gate;
      return reply.text('Too late.');
    });
    w.sim.user('alice').say(thread, 'Rewrite everything.');
    await w.sim.until(() => fake.requests.length === 1);
    w.sim.user('alice').say(thread, 'And the tactics too.');
    const replies = () => w.sim.messagesIn(thread).filter((m) => m.authorId === w.client.user.id && m.components.length > 0);
    await w.sim.until(() => replies().length === 2, { description: 'both replies with their Stop button' });
    const running = replies()[0]!;

    await w.sim
      .user('alice')
      .click(running, `editor-stop:${await sessionId(thread)}`)
      .ephemeral();
    const typedBefore = w.sim.typingIn(thread).length;
    const botMessagesBefore = w.sim.messagesIn(thread).filter((m) => m.authorId === w.client.user.id).length;
    release();
    await w.sim.until(() => w.sim.messagesIn(thread).filter((m) => messageText(m).includes('Stopped')).length === 2);
    await w.bot.idle();

    expect(w.sim.typingIn(thread)).toHaveLength(typedBefore);
    expect(w.sim.messagesIn(thread).filter((m) => m.authorId === w.client.user.id)).toHaveLength(botMessagesBefore);
  });

  it('GIVEN alice in a DM with the bot WHEN she opens the editor there and writes THEN the DM is the conversation', async () => {
    const failed = appended(() => w.sim.failedRequests());
    const opened = await w.sim
      .user('alice')
      .slash('dm', 'persona', { subcommand: 'edit', options: { persona: ada.id } })
      .ephemeral();
    expect(messageText(opened)).toMatch(/Editing \*\*Ada Lovelace\*\* here/);
    fake.enqueue(reply.text('In the DM: what shall we change?'));
    w.sim.user('alice').dm('Hello there');
    await w.sim.until(() => w.sim.dmsTo('alice').some((m) => messageText(m).includes('In the DM: what shall we change?')));
    await w.bot.idle();
    expect(fake.requests).toHaveLength(1);
    expect(failed()).toEqual([]);
  });

  it('GIVEN a thread with no editor WHEN chat-clear is used in a plain channel THEN it says where it works', async () => {
    expect(messageText(await w.sim.user('alice').slash('other', 'persona', { subcommand: 'chat-clear', options: {} }).ephemeral())).toMatch(
      /editor thread/,
    );
  });
});
