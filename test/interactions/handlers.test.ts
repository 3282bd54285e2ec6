import type { ChatInputCommandInteraction, RepliableInteraction } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { handlersOf } from '../../src/interactions/handlers.ts';
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
    deferFirst: true,
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
