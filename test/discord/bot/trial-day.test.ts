import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nominees, type Phase } from '../../../src/game/index.ts';
import { NO_LYNCH_VALUE } from '../../../src/discord/presenters/vote.ts';
import { messageText, type SimMessage } from '../../../scripts/fakes/discord/index.ts';
import { startWorld, type World } from './harness.ts';
import { HUMANS, openGame, options, seated, settle } from './playing.ts';

let w: World;
beforeEach(async () => {
  w = await startWorld();
});
afterEach(() => w.close());

const embedText = (m: SimMessage): string => JSON.stringify(m.embeds);

describe('a trial day on Discord', () => {
  it('GIVEN a trial-day game WHEN people nominate by menu and command, the accused defend and the town votes THEN each step is confirmed privately, bad nominations are refused with nothing changed, only the defendant speaks, and the vote offers only the accused', async () => {
    // Room for every nomination the AI seats may make as well as bob's.
    const liveGame = await openGame(w, { 'day-style': 'trial', 'night-one-kill': false, 'max-nominees': 6 });
    const gameId = liveGame.state.id;
    // Night 1 and the dawn pass without a kill.
    while (liveGame.state.phase !== 'day') {
      const phase = liveGame.state.phase;
      w.timers.advanceTo(liveGame.state.deadline!);
      await w.sim.until(() => liveGame.state.phase !== phase, { timeoutMs: 5000, description: 'the phase moved on' });
      await settle(w, liveGame);
    }
    const menuId = `nominate:${gameId}`;
    const nominations = () => w.sim.messagesIn('game').filter((m) => options(m, menuId).length > 0 || embedText(m).includes('nominations'));
    await w.sim.until(() => nominations().length > 0, { description: 'the nominations message posted' });
    const message = nominations().at(-1)!;
    expect(embedText(message)).toContain(`Day 1: nominations`);
    const carol = seated(liveGame.state, 'carol');

    // A bad nomination: refused privately, nothing changes.
    const before = liveGame.state.trial;
    expect(messageText(await w.sim.user('carol').select(message, menuId, [carol.id]).ephemeral())).toBe(
      'You cannot put yourself on trial.',
    );
    expect(
      messageText(
        await w.sim
          .user('bob')
          .slash('game', 'mafia', { subcommand: 'nominate', options: { player: 'nobody here' } })
          .ephemeral(),
      ),
    ).toBe('Nobody called "nobody here" is playing in this game.');
    expect(liveGame.state.trial).toBe(before);

    // The AI seats have had their say (settled): nothing moves now but what bob and alice do. bob
    // names someone by the menu, alice by the command: carol, unless the AI seats already put her
    // on trial (she then defends all the same). What each hears follows from the nominations at
    // that moment: an AI seat may have named the target already.
    await settle(w, liveGame);
    const bob = seated(liveGame.state, 'bob');
    const nominationOf = (id: string) => liveGame.state.trial.nominations.find((n) => n.targetId === id);
    const target =
      [carol, ...liveGame.state.players].find(
        (p) => p.alive && p.userId !== bob.userId && p.name !== 'alice' && !nominationOf(p.id)?.standing,
      ) ?? expect.fail('nobody left to nominate');
    const pendingByAi = nominationOf(target.id) !== undefined;
    const first = messageText(await w.sim.user('bob').select(message, menuId, [target.id]).ephemeral());
    expect(first).toBe(
      pendingByAi
        ? `You seconded the nomination of ${target.name}: ${target.name} stands accused.`
        : `You nominated ${target.name}; it needs a second.`,
    );
    const second = messageText(
      await w.sim
        .user('alice')
        .slash('game', 'mafia', { subcommand: 'nominate', options: { player: target.id } })
        .ephemeral(),
    );
    expect(second).toBe(
      pendingByAi
        ? `${target.name} already stands accused today.`
        : `You seconded the nomination of ${target.name}: ${target.name} stands accused.`,
    );
    expect(nominees(liveGame.state)).toEqual(expect.arrayContaining([carol.id, target.id]));
    await settle(w, liveGame);
    const shown = w.sim.messagesIn('game').find((m) => m.id === liveGame.nominationMessageId);
    expect(shown && embedText(shown)).toContain(`**${target.name}**`);

    // Discussion ends: each accused defends in turn; a person who is not on trial is not heard meanwhile.
    w.timers.advanceTo(liveGame.state.deadline!);
    await w.sim.until(() => liveGame.state.phase === 'defense', { timeoutMs: 5000, description: 'the first defense' });
    let heardOutOfTurn = 0;
    // Read afresh each turn (TypeScript would keep the phase the checks above narrowed it to).
    const phaseNow = (): Phase => liveGame.state.phase;
    while (phaseNow() === 'defense') {
      const { defendant } = liveGame.state.trial;
      const accused = liveGame.state.players.find((p) => p.id === defendant)!;
      if (accused.kind === 'human') {
        w.sim.user(accused.name).say('game', 'I am a plain Townsperson, and bob has nothing on me.');
        const bystander = HUMANS.find((n) => n !== accused.name && seated(liveGame.state, n).alive)!;
        w.sim.user(bystander).say('game', 'Guilty, obviously.');
        await w.sim.until(() => w.sim.dmsTo(bystander).some((m) => messageText(m).includes('speaking in their defense')), {
          description: 'the bystander told why their words did not count',
        });
        heardOutOfTurn += liveGame.state.log.filter((e) => e.type === 'speech' && e.payload.text === 'Guilty, obviously.').length;
        w.timers.advanceTo(liveGame.state.deadline!);
      }
      const turn = defendant;
      await w.sim.until(() => liveGame.state.phase !== 'defense' || liveGame.state.trial.defendant !== turn, {
        timeoutMs: 5000,
        description: 'the defense moved on',
      });
      await settle(w, liveGame);
    }
    expect(heardOutOfTurn).toBe(0);
    expect(
      liveGame.state.log.some((e) => e.type === 'speech' && e.payload.playerId === carol.id && e.payload.text.startsWith('I am a plain')),
    ).toBe(true);

    // The vote offers the accused and no lynch, nobody else.
    expect(liveGame.state.phase).toBe('vote');
    await settle(w, liveGame);
    const vote = w.sim.messagesIn('game').find((m) => m.id === liveGame.voteMessageId)!;
    expect(options(vote, `vote:${gameId}`).sort()).toEqual([...nominees(liveGame.state), NO_LYNCH_VALUE].sort());
    const nominationsClosed = w.sim.messagesIn('game').find((m) => m.id === message.id)!;
    expect(options(nominationsClosed, menuId)).toEqual([]);
    expect(w.sim.failedRequests()).toEqual([]);
  });
});
