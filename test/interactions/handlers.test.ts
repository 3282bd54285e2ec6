import type { ChatInputCommandInteraction } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { responderOf } from '../../src/discord/responder.ts';
import { handlersOf } from '../../src/interactions/handlers.ts';
import type { Precondition } from '../../src/interactions/precondition.ts';
import { err, ok } from '../../src/result.ts';

interface Deps {
  readonly liveGameOf: (user: string) => string | null;
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

const liveGameHere: Precondition<ChatInputCommandInteraction, { deps: Deps }, { liveGame: string }> = (i, { deps }) => {
  const liveGame = deps.liveGameOf(i.user.id);
  return Promise.resolve(liveGame ? ok({ liveGame }) : err('no game here'));
};
const hostOnly: Precondition<ChatInputCommandInteraction, { liveGame: string }, object> = (i, { liveGame }) =>
  Promise.resolve(liveGame === `${i.user.id}'s` ? ok({}) : err('host only'));

const deps: Deps = { liveGameOf: (user) => (user === 'stranger' ? null : "alice's") };

describe('declared preconditions', () => {
  const ran: string[] = [];
  const start = command.subcommand({
    name: 'start',
    definition: (s) => s.setDescription('Start'),
    ackFirst: true,
    preconditions: [liveGameHere, hostOnly],
    run: (i, { liveGame }) => {
      ran.push(`${i.user.id} started ${liveGame}`);
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
