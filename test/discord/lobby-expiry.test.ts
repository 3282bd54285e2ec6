import { describe, expect, it } from 'vitest';
import { ManualTimers } from '../../src/clock.ts';
import { closeIdleLobby, LobbyExpiry } from '../../src/discord/lobby-expiry.ts';
import { T0, TestGame } from '../support/test-game.ts';

const MINUTE = 60_000;

describe('closing idle lobbies', () => {
  it('GIVEN a lobby last changed at T0 WHEN asked to close it THEN it is called off only once the idle time has passed, with a reason in words', () => {
    const lobby = TestGame.lobby(2).state;
    const early = closeIdleLobby(lobby, T0 + 60 * MINUTE - 1, 60);
    expect(early.ok ? null : early.error.code).toBe('not_due');
    const closed = closeIdleLobby(lobby, T0 + 60 * MINUTE, 60);
    const ended = closed.ok ? closed.value.events.find((e) => e.type === 'game_ended') : undefined;
    expect(ended?.type === 'game_ended' && ended.payload.outcome).toEqual({
      kind: 'cancelled',
      by: null,
      reason: 'the lobby closed after an hour without activity; /mafia create opens a new one',
    });
    for (const [minutes, words] of [
      [1, 'a minute'],
      [15, '15 minutes'],
      [120, '2 hours'],
      [90, '90 minutes'],
    ] as const) {
      const done = closeIdleLobby(lobby, T0 + minutes * MINUTE, minutes);
      const reason = done.ok ? done.value.events.find((e) => e.type === 'game_ended') : undefined;
      expect(reason?.type === 'game_ended' && reason.payload.outcome.kind === 'cancelled' && reason.payload.outcome.reason).toContain(
        `after ${words} without`,
      );
    }
  });

  it('GIVEN a started game WHEN asked to close it as an idle lobby THEN it is refused', () => {
    const game = TestGame.seated(
      [
        { name: 'A', kind: 'human' },
        { name: 'B', kind: 'human' },
        { name: 'C', kind: 'human' },
      ],
      ['mafia', 'townsperson', 'townsperson'],
    ).state;
    const refused = closeIdleLobby(game, T0 + 600 * MINUTE, 60);
    expect(refused.ok ? null : refused.error.code).toBe('game_started');
  });

  it('GIVEN lobby timers WHEN set again, forgotten, or set for a lobby already idle too long THEN each lobby expires once, at its time', () => {
    const timers = new ManualTimers(T0);
    const expired: string[] = [];
    const expiry = new LobbyExpiry(timers, 60, (id) => expired.push(`${id}@${(timers.now() - T0) / MINUTE}`));
    const lobby = TestGame.lobby(1).state;

    expiry.arm(lobby);
    expiry.arm(lobby); // set again: still one timer
    expect(expiry.size).toBe(1);
    timers.advanceTo(T0 + 59 * MINUTE);
    expect(expired).toEqual([]);
    timers.advanceTo(T0 + 60 * MINUTE);
    expect(expired).toEqual(['test@60']);
    expect(expiry.size).toBe(0);

    // Idle too long already (the bot was down): at once, no timer.
    expiry.arm(lobby);
    expect(expired).toEqual(['test@60', 'test@60']);
    expect(expiry.size).toBe(0);

    const later = new LobbyExpiry(timers, 120, (id) => expired.push(`late ${id}`));
    later.arm(lobby);
    later.disarmAll();
    timers.advanceTo(T0 + 600 * MINUTE);
    expect(expired).toHaveLength(2);
  });
});
