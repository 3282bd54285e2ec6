import type { ChatInputCommandInteraction, RepliableInteraction } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { acknowledge, handlersOf, tellPrivately } from '../../src/interactions/handlers.ts';
import type { Precondition } from '../../src/interactions/precondition.ts';
import { err, ok } from '../../src/result.ts';

interface Deps {
  readonly tableOf: (user: string) => string | null;
}

/** What a fake interaction went through: the deferral and the refusal, in order. */
function interaction(user: string): { i: ChatInputCommandInteraction; seen: string[] } {
  const seen: string[] = [];
  const fake = {
    user: { id: user },
    deferReply: () => {
      seen.push('deferred');
      return Promise.resolve();
    },
  };
  return { i: fake as unknown as ChatInputCommandInteraction, seen };
}

const refusals: string[] = [];
const command = handlersOf<Deps>((_i: RepliableInteraction, message: string) => {
  refusals.push(message);
  return Promise.resolve();
});

const tableHere: Precondition<ChatInputCommandInteraction, { deps: Deps }, { table: string }> = (i, { deps }) => {
  const table = deps.tableOf(i.user.id);
  return Promise.resolve(table ? ok({ table }) : err('no game here'));
};
const hostOnly: Precondition<ChatInputCommandInteraction, { table: string }, object> = (i, { table }) =>
  Promise.resolve(table === `${i.user.id}'s` ? ok({}) : err('host only'));

const deps: Deps = { tableOf: (user) => (user === 'stranger' ? null : "alice's") };

describe('declared preconditions', () => {
  const ran: string[] = [];
  const start = command.subcommand({
    name: 'start',
    definition: (s) => s.setDescription('Start'),
    ackFirst: true,
    preconditions: [tableHere, hostOnly],
    run: (i, { table }) => {
      ran.push(`${i.user.id} started ${table}`);
      return Promise.resolve();
    },
  });

  it('GIVEN every precondition passes WHEN the subcommand runs THEN the handler gets what they found', async () => {
    const { i, seen } = interaction('alice');
    await start.handle(i, deps);
    expect(seen).toEqual(['deferred']);
    expect(ran).toEqual(["alice started alice's"]);
  });

  it('GIVEN a precondition fails WHEN the subcommand runs THEN its refusal is sent, later ones and the handler do not run', async () => {
    ran.length = 0;
    refusals.length = 0;
    await start.handle(interaction('stranger').i, deps);
    await start.handle(interaction('bob').i, deps);
    expect(refusals).toEqual(['no game here', 'host only']);
    expect(ran).toEqual([]);
  });
});

/** A fake interaction that keeps discord.js's answered flags and records how it was answered. */
function answerable(component: boolean): { i: RepliableInteraction; calls: string[] } {
  const calls: string[] = [];
  const fake = {
    deferred: false,
    replied: false,
    ephemeral: null as boolean | null,
    isMessageComponent: () => component,
    deferReply(options: { flags?: number } = {}) {
      calls.push(options.flags ? 'deferReply(ephemeral)' : 'deferReply(public)');
      fake.deferred = true;
      fake.ephemeral = Boolean(options.flags);
      return Promise.resolve();
    },
    deferUpdate() {
      calls.push('deferUpdate');
      fake.deferred = true;
      return Promise.resolve();
    },
    reply(options: { content: string; flags?: number }) {
      calls.push(`reply${options.flags ? '(ephemeral)' : ''}: ${options.content}`);
      fake.replied = true;
      return Promise.resolve();
    },
    editReply(options: { content: string }) {
      calls.push(`editReply: ${options.content}`);
      fake.replied = true;
      return Promise.resolve();
    },
    deleteReply() {
      calls.push('deleteReply');
      return Promise.resolve();
    },
    followUp(options: { content: string; flags?: number }) {
      calls.push(`followUp${options.flags ? '(ephemeral)' : ''}: ${options.content}`);
      return Promise.resolve();
    },
  };
  return { i: fake as unknown as RepliableInteraction, calls };
}

describe('acknowledging, then a word only the person sees', () => {
  it('GIVEN nothing answered yet WHEN the person is told something THEN it is a private reply', async () => {
    const { i, calls } = answerable(false);
    await tellPrivately(i, 'no game here');
    expect(calls).toEqual(['reply(ephemeral): no game here']);
  });

  it('GIVEN a private "thinking…" WHEN the person is told something THEN it fills that answer', async () => {
    const { i, calls } = answerable(false);
    await acknowledge(i, 'ephemeral');
    await acknowledge(i, 'ephemeral');
    await tellPrivately(i, 'it did not count');
    expect(calls).toEqual(['deferReply(ephemeral)', 'editReply: it did not count']);
  });

  it('GIVEN a silent update of a component WHEN the person is told something THEN it is a private follow-up, the component message left alone', async () => {
    const { i, calls } = answerable(true);
    await acknowledge(i, 'update');
    await tellPrivately(i, 'it did not count');
    expect(calls).toEqual(['deferUpdate', 'followUp(ephemeral): it did not count']);
  });

  it('GIVEN a public "thinking…" WHEN the person is told something THEN it is taken back and the word follows privately', async () => {
    const { i, calls } = answerable(false);
    await acknowledge(i, 'public');
    await tellPrivately(i, 'this channel already has a game');
    expect(calls).toEqual(['deferReply(public)', 'deleteReply', 'followUp(ephemeral): this channel already has a game']);
  });

  it('GIVEN a handler that answers with a form WHEN it acknowledges THEN nothing is sent (the form must be the first answer)', async () => {
    const { i, calls } = answerable(false);
    await acknowledge(i, 'none');
    expect(calls).toEqual([]);
  });
});
