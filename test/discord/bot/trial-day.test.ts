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
    const table = await openGame(w, { 'day-style': 'trial', 'night-one-kill': false });
    const gameId = table.state.id;
    // Night 1 and the dawn pass without a kill.
    while (table.state.phase !== 'day') {
      const phase = table.state.phase;
      w.timers.advanceTo(table.state.deadline!);
      await w.sim.until(() => table.state.phase !== phase, { timeoutMs: 5000, description: 'the phase moved on' });
      await settle(w, table);
    }
    const menuId = `nominate:${gameId}`;
    const nominations = () => w.sim.messagesIn('game').filter((m) => options(m, menuId).length > 0 || embedText(m).includes('nominations'));
    await w.sim.until(() => nominations().length > 0, { description: 'the nominations message posted' });
    const message = nominations().at(-1)!;
    expect(embedText(message)).toContain(`Day 1: nominations`);
    const carol = seated(table.state, 'carol');

    // A bad nomination: refused privately, nothing changes.
    const before = table.state.trial;
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
    expect(table.state.trial).toBe(before);

    // bob nominates carol by the menu; alice seconds by the command (unless an AI seat was quicker to either).
    const first = messageText(await w.sim.user('bob').select(message, menuId, [carol.id]).ephemeral());
    expect(first).toMatch(/^You (nominated carol|seconded the nomination of carol)/);
    const second = messageText(
      await w.sim
        .user('alice')
        .slash('game', 'mafia', { subcommand: 'nominate', options: { player: 'carol' } })
        .ephemeral(),
    );
    expect(second).toMatch(/carol (already stands accused|stands accused)/);
    expect(nominees(table.state)).toContain(carol.id);
    await settle(w, table);
    const shown = w.sim.messagesIn('game').find((m) => m.id === table.nominationMessageId);
    expect(shown && embedText(shown)).toContain('**carol**');

    // Discussion ends: each accused defends in turn; a person who is not on trial is not heard meanwhile.
    w.timers.advanceTo(table.state.deadline!);
    await w.sim.until(() => table.state.phase === 'defense', { timeoutMs: 5000, description: 'the first defense' });
    let heardOutOfTurn = 0;
    // Read afresh each turn (TypeScript would keep the phase the checks above narrowed it to).
    const phaseNow = (): Phase => table.state.phase;
    while (phaseNow() === 'defense') {
      const { defendant } = table.state.trial;
      const accused = table.state.players.find((p) => p.id === defendant)!;
      if (accused.kind === 'human') {
        w.sim.user(accused.name).say('game', 'I am a plain Townsperson, and bob has nothing on me.');
        const bystander = HUMANS.find((n) => n !== accused.name && seated(table.state, n).alive)!;
        w.sim.user(bystander).say('game', 'Guilty, obviously.');
        await w.sim.until(() => w.sim.dmsTo(bystander).some((m) => messageText(m).includes('speaking in their defense')), {
          description: 'the bystander told why their words did not count',
        });
        heardOutOfTurn += table.state.log.filter((e) => e.type === 'speech' && e.payload.text === 'Guilty, obviously.').length;
        w.timers.advanceTo(table.state.deadline!);
      }
      const turn = defendant;
      await w.sim.until(() => table.state.phase !== 'defense' || table.state.trial.defendant !== turn, {
        timeoutMs: 5000,
        description: 'the defense moved on',
      });
      await settle(w, table);
    }
    expect(heardOutOfTurn).toBe(0);
    expect(
      table.state.log.some((e) => e.type === 'speech' && e.payload.playerId === carol.id && e.payload.text.startsWith('I am a plain')),
    ).toBe(true);

    // The vote offers the accused and no lynch, nobody else.
    expect(table.state.phase).toBe('vote');
    await settle(w, table);
    const vote = w.sim.messagesIn('game').find((m) => m.id === table.voteMessageId)!;
    expect(options(vote, `vote:${gameId}`).sort()).toEqual([...nominees(table.state), NO_LYNCH_VALUE].sort());
    const nominationsClosed = w.sim.messagesIn('game').find((m) => m.id === message.id)!;
    expect(options(nominationsClosed, menuId)).toEqual([]);
    expect(w.sim.failedRequests()).toEqual([]);
  });
});
