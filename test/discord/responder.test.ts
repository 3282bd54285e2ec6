import { ModalBuilder, type RepliableInteraction } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { responderAfter, responderOf } from '../../src/discord/responder.ts';

/** A fake interaction that records how it was answered, each call taking a moment as a REST call does. */
function answerable(component: boolean): { i: RepliableInteraction; calls: string[] } {
  const calls: string[] = [];
  const call = (what: string) => {
    calls.push(what);
    return new Promise((resolve) => setImmediate(() => resolve({ resource: { message: null } })));
  };
  const fake = {
    isMessageComponent: () => component,
    isModalSubmit: () => false,
    deferReply: (options: { flags?: number } = {}) => call(options.flags ? 'deferReply(ephemeral)' : 'deferReply(public)'),
    deferUpdate: () => call('deferUpdate'),
    reply: (options: { content?: string; flags?: number }) => call(`reply${options.flags ? '(ephemeral)' : ''}: ${options.content}`),
    update: (options: { content?: string }) => call(`update: ${options.content}`),
    editReply: (options: { content?: string }) => call(`editReply: ${options.content}`),
    deleteReply: () => call('deleteReply'),
    followUp: (options: { content: string; flags?: number }) => call(`followUp${options.flags ? '(ephemeral)' : ''}: ${options.content}`),
    showModal: () => call('showModal'),
  };
  return { i: fake as unknown as RepliableInteraction, calls };
}

describe('one way to answer an interaction', () => {
  it('GIVEN nothing sent yet WHEN the person is told something THEN it is a private reply', async () => {
    const { i, calls } = answerable(false);
    await responderOf(i).as('ephemeral').privately('no game here');
    expect(calls).toEqual(['reply(ephemeral): no game here']);
  });

  it('GIVEN a precondition that acknowledged WHEN the handler answers THEN the answer fills the "thinking…" in, never a second first answer', async () => {
    const { i, calls } = answerable(false);
    const reply = responderOf(i).as('ephemeral');
    await reply.ack();
    await reply.ack();
    await reply.answer({ content: 'Mafia: Lobby' });
    expect(calls).toEqual(['deferReply(ephemeral)', 'editReply: Mafia: Lobby']);
  });

  it('GIVEN an acknowledgement still on its way WHEN the handler answers at once THEN the answer waits for it and fills it in', async () => {
    const { i, calls } = answerable(false);
    const reply = responderOf(i).as('ephemeral');
    const acked = reply.ack();
    await reply.answer({ content: 'Your vote: bob.' });
    await acked;
    expect(calls).toEqual(['deferReply(ephemeral)', 'editReply: Your vote: bob.']);
  });

  it('GIVEN nothing sent WHEN a public handler answers THEN it is one public reply', async () => {
    const { i, calls } = answerable(false);
    await responderOf(i).as('public').answer({ content: 'the lobby' });
    expect(calls).toEqual(['reply: the lobby']);
  });

  it('GIVEN a component WHEN an update handler answers at once, or after a silent update THEN the message it is on is the answer', async () => {
    const quick = answerable(true);
    await responderOf(quick.i).as('update').answer({ content: 'the lobby' });
    expect(quick.calls).toEqual(['update: the lobby']);
    const slow = answerable(true);
    const reply = responderOf(slow.i).as('update');
    await reply.ack();
    await reply.answer({ content: 'the lobby' });
    expect(slow.calls).toEqual(['deferUpdate', 'editReply: the lobby']);
  });

  it('GIVEN a silent update of a component WHEN the person is told something THEN it is a private follow-up, the component message left alone', async () => {
    const { i, calls } = answerable(true);
    const reply = responderOf(i).as('update');
    await reply.ack();
    await reply.privately('it did not count');
    expect(calls).toEqual(['deferUpdate', 'followUp(ephemeral): it did not count']);
  });

  it('GIVEN a public "thinking…" WHEN the person is told something THEN it is taken back and the word follows privately', async () => {
    const { i, calls } = answerable(false);
    const reply = responderOf(i).as('public');
    await reply.ack();
    await reply.privately('this channel already has a game');
    expect(calls).toEqual(['deferReply(public)', 'deleteReply', 'followUp(ephemeral): this channel already has a game']);
  });

  it('GIVEN an answer sent WHEN a note follows THEN it is a private follow-up', async () => {
    const { i, calls } = answerable(false);
    const reply = responderOf(i).as('public');
    await reply.answer({ content: 'the lobby' });
    await reply.privately('this channel lacks Manage Webhooks');
    expect(calls).toEqual(['reply: the lobby', 'followUp(ephemeral): this channel lacks Manage Webhooks']);
  });

  it('GIVEN a handler that answers with a form WHEN it acknowledges THEN nothing is sent, and the form goes out; after an acknowledgement it cannot', async () => {
    const first = answerable(false);
    const none = responderOf(first.i).as('none');
    await none.ack();
    expect(await none.modal(new ModalBuilder())).toBe(true);
    expect(first.calls).toEqual(['showModal']);
    const late = answerable(false);
    const reply = responderOf(late.i).as('ephemeral');
    await reply.ack();
    expect(await reply.modal(new ModalBuilder())).toBe(false);
    expect(late.calls).toEqual(['deferReply(ephemeral)']);
  });

  it("GIVEN an interaction to be handed to another process WHEN it is acknowledged in its handler's style THEN one deferral is sent, and the Responder says what Discord holds; a form handler's has none", async () => {
    const { i, calls } = answerable(true);
    expect(await responderOf(i).acknowledge('ephemeral')).toBe('deferred');
    expect(await responderOf(i).acknowledge('ephemeral')).toBe('deferred');
    expect(calls).toEqual(['deferReply(ephemeral)']);
    expect(await responderOf(answerable(true).i).acknowledge('update')).toBe('deferred-update');
    expect(await responderOf(answerable(false).i).acknowledge('none')).toBeNull();
  });

  it('GIVEN an interaction another process deferred privately WHEN the handler here answers, or refuses THEN it edits that "thinking…", never a first answer, and discord.js knows it is deferred', async () => {
    const answered = answerable(true);
    const reply = responderAfter(answered.i, 'deferred').as('ephemeral');
    expect(reply.begun()).toBe(true);
    expect(answered.i.deferred && answered.i.ephemeral).toBe(true);
    await reply.ack();
    await reply.privately('Noted: bob.');
    expect(answered.calls).toEqual(['editReply: Noted: bob.']);
    expect(responderOf(answered.i).as('ephemeral').begun()).toBe(true);

    const refused = answerable(true);
    await responderAfter(refused.i, 'deferred').as('ephemeral').answer({ content: 'Night actions can only be taken at night.' });
    expect(refused.calls).toEqual(['editReply: Night actions can only be taken at night.']);
  });
});
