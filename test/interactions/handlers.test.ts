import type { ChatInputCommandInteraction } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { responderOf } from '../../src/discord/responder.ts';
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
    isMessageComponent: () => false,
    deferReply: () => {
      seen.push('deferred');
      return Promise.resolve();
    },
    editReply: (options: { content: string }) => {
      seen.push(`refused: ${options.content}`);
      return Promise.resolve();
    },
  };
  return { i: fake as unknown as ChatInputCommandInteraction, seen };
}

const command = handlersOf<Deps>();

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
    await start.handle(i, deps, responderOf(i));
    expect(seen).toEqual(['deferred']);
    expect(ran).toEqual(["alice started alice's"]);
  });

  it('GIVEN a precondition fails WHEN the subcommand runs THEN its refusal is sent, later ones and the handler do not run', async () => {
    ran.length = 0;
    const stranger = interaction('stranger');
    const bob = interaction('bob');
    await start.handle(stranger.i, deps, responderOf(stranger.i));
    await start.handle(bob.i, deps, responderOf(bob.i));
    // Acknowledged first, so each refusal fills the private "thinking…" in.
    expect([...stranger.seen, ...bob.seen]).toEqual(['deferred', 'refused: no game here', 'deferred', 'refused: host only']);
    expect(ran).toEqual([]);
  });
});
