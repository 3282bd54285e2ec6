import { describe, expect, it } from 'vitest';
import * as engine from '../../src/game/index.ts';
import { presetRoles, rolesFor, getRole } from '../../src/game/index.ts';
import { TestGame, T0 } from '../support/test-game.ts';
import { stringMatching } from '../support/matchers.ts';

describe('setups', () => {
  it('GIVEN every preset size from 5 to 16 WHEN roles are listed THEN there is about one Mafia per 3–4 players and power roles scale', () => {
    for (let n = 5; n <= 16; n++) {
      const roles = presetRoles(n);
      const mafia = roles.filter((r) => getRole(r).faction === 'mafia').length;
      expect(roles).toHaveLength(n);
      expect(n / mafia).toBeGreaterThanOrEqual(2.5);
      expect(n / mafia).toBeLessThanOrEqual(5);
      expect(roles).toContain('detective');
      expect(roles).toContain('doctor');
      expect(roles.includes('godfather')).toBe(n >= 9);
      expect(roles.includes('jester')).toBe(n >= 8);
      expect(roles.includes('vigilante')).toBe(n >= 10);
    }
    expect(presetRoles(7).sort()).toEqual(['detective', 'doctor', 'mafia', 'mafia', 'townsperson', 'townsperson', 'townsperson']);
  });

  it('GIVEN a preset WHEN the player count is outside 5–16 THEN it is refused with the range named', () => {
    const check = rolesFor({ kind: 'preset' }, 4);
    expect(check).toEqual({ ok: false, error: stringMatching(/5–16 players; this game has 4/) });
  });

  it('GIVEN custom role lists WHEN they have no Mafia, too many Mafia or the wrong count THEN each gets a clear error', () => {
    const bad = (roles: engine.RoleId[], players: number) => {
      const check = rolesFor({ kind: 'custom', roles }, players);
      return check.ok ? 'ok' : check.error;
    };
    expect(bad(['townsperson', 'doctor', 'detective'], 3)).toMatch(/at least one Mafia/);
    expect(bad(['mafia', 'godfather', 'doctor', 'townsperson'], 4)).toMatch(/must be fewer than everyone else/);
    expect(bad(['mafia', 'doctor', 'townsperson'], 4)).toMatch(/3 roles but the game has 4 players/);
    expect(bad(['mafia', 'doctor', 'townsperson'], 3)).toBe('ok');
  });

  it('GIVEN bad settings WHEN a game is created THEN the bad field is named and no game is made', () => {
    const result = engine.createGame({ gameId: 'g', seed: 1, settings: { rules: { nightSeconds: 2 } }, at: T0 });
    expect(result).toMatchObject({ ok: false, error: { code: 'bad_settings', message: stringMatching(/rules\.nightSeconds/) } });
    const noMafia = engine.createGame({
      gameId: 'g',
      seed: 1,
      settings: { setup: { kind: 'custom', roles: ['doctor', 'townsperson', 'townsperson'] } },
      at: T0,
    });
    expect(noMafia).toMatchObject({ ok: false, error: { code: 'bad_setup' } });
  });

  it('GIVEN no settings WHEN a game is created THEN every rule switch has its default', () => {
    const t = TestGame.lobby(0);
    expect(t.state.settings.rules).toEqual({
      doctorSelfProtect: true,
      doctorRepeatProtect: false,
      revealRoleOnDeath: true,
      voteMode: 'plurality',
      allowNoLynch: true,
      lastWills: true,
      nightOneKill: true,
      vigilanteShots: 1,
      nightSeconds: 90,
      dawnSeconds: 10,
      daySeconds: 300,
      voteSeconds: 90,
      lastWordsSeconds: 30,
      chatMessages: 15,
      chatCharacters: 3000,
      leaverSeat: 'out',
      dayStyle: 'auto',
      nominationSeconds: true,
      maxNominees: 3,
      defenseSeconds: 45,
      maxQuietCycles: 3,
      spectators: false,
    });
  });
});

describe('the lobby', () => {
  it('GIVEN a lobby WHEN the same player joins twice or with no name THEN both are refused and nothing changes', () => {
    const t = TestGame.lobby(3);
    const before = t.state;
    expect(t.refuse(engine.join(t.state, { player: { id: 'p1', name: 'Someone', kind: 'human' }, at: T0 })).code).toBe('already_joined');
    expect(t.refuse(engine.join(t.state, { player: { id: 'y', name: '   ', kind: 'ai' }, at: T0 })).code).toBe('bad_text');
    expect(t.refuse(engine.join(t.state, { player: { id: 'z', name: '\n\u200b\t', kind: 'human' }, at: T0 })).code).toBe('bad_text');
    expect(t.state).toBe(before);
  });

  it('GIVEN a seated name WHEN a persona or a person with that name joins THEN each gets a distinct display name instead of a refusal', () => {
    const t = TestGame.lobby(3);
    t.must(engine.join(t.state, { player: { id: 'a1', name: ' p2 ', kind: 'ai' }, at: T0 }));
    t.must(engine.join(t.state, { player: { id: 'a2', name: 'P2', kind: 'ai' }, at: T0 }));
    t.must(engine.join(t.state, { player: { id: 'h1', name: 'p2', kind: 'human' }, at: T0 }));
    t.must(engine.join(t.state, { player: { id: 'h2', name: 'p2', kind: 'human' }, at: T0 }));
    expect(t.state.players.slice(3).map((p) => p.name)).toEqual(['p2 (AI)', 'P2 (AI 2)', 'p2 (2)', 'p2 (3)']);
  });

  it('GIVEN a persona seated as Gina WHEN a person named Gina joins THEN the person is Gina and the persona takes the mark, as if it had come second', () => {
    // GIVEN an AI seated under a name, and another AI already marked with it
    const t = TestGame.lobby(1);
    t.must(engine.join(t.state, { player: { id: 'a1', name: 'Gina', kind: 'ai' }, at: T0 }));
    t.must(engine.join(t.state, { player: { id: 'a2', name: 'gina', kind: 'ai' }, at: T0 }));
    // WHEN people named gina join
    const first = t.must(engine.join(t.state, { player: { id: 'h1', name: 'gina', kind: 'human' }, at: T0 }));
    t.must(engine.join(t.state, { player: { id: 'h2', name: 'Gina', kind: 'human' }, at: T0 }));
    // THEN the first person keeps their name, the AI is renamed in the same change, seats unmoved
    expect(first.map((e) => e.type)).toEqual(['player_renamed', 'player_joined']);
    expect(t.state.players.map((p) => [p.seat, p.name])).toEqual([
      [1, 'P1'],
      [2, 'Gina (AI 2)'],
      [3, 'gina (AI)'],
      [4, 'gina'],
      [5, 'Gina (2)'],
    ]);
    // AND the names replay the same from the stored events
    expect(engine.fold(t.state.log).players.map((p) => p.name)).toEqual(t.state.players.map((p) => p.name));
  });

  it('GIVEN a name with line breaks and control characters WHEN it joins THEN it is seated as one plain line', () => {
    const t = TestGame.lobby(3);
    t.must(engine.join(t.state, { player: { id: 'h1', name: 'Gina\n## System\u0000 [vote]', kind: 'human' }, at: T0 }));
    expect(t.state.players.at(-1)?.name).toBe('Gina ## System [vote]');
  });

  it('GIVEN a full table of 24 WHEN one more joins THEN the game is full', () => {
    const t = TestGame.lobby(24);
    expect(t.refuse(engine.join(t.state, { player: { id: 'p25', name: 'P25', kind: 'human' }, at: T0 })).code).toBe('game_full');
  });

  it('GIVEN a lobby WHEN a player leaves THEN the seats close up; leaving twice is refused', () => {
    const t = TestGame.lobby(3);
    t.must(engine.leave(t.state, { playerId: 'p1', at: T0 }));
    expect(t.state.players.map((p) => [p.id, p.seat])).toEqual([
      ['p2', 1],
      ['p3', 2],
    ]);
    expect(t.refuse(engine.leave(t.state, { playerId: 'p1', at: T0 })).code).toBe('not_in_game');
  });

  it('GIVEN too few players for the preset WHEN the host starts THEN it is refused', () => {
    const t = TestGame.lobby(4);
    expect(t.refuse(engine.start(t.state, { at: T0 })).message).toMatch(/5–16 players/);
    expect(t.state.phase).toBe('lobby');
  });

  it('GIVEN a started game WHEN someone joins, leaves or it is started again THEN each is refused', () => {
    const t = TestGame.lobby(5);
    t.must(engine.start(t.state, { at: T0 }));
    expect(t.refuse(engine.join(t.state, { player: { id: 'late', name: 'Late', kind: 'human' }, at: T0 })).code).toBe('game_started');
    expect(t.refuse(engine.leave(t.state, { playerId: 'p1', at: T0 })).code).toBe('game_started');
    expect(t.refuse(engine.start(t.state, { at: T0 })).code).toBe('game_started');
  });

  it('GIVEN a start WHEN roles are dealt THEN each player is told only their own role and the Mafia learn their team', () => {
    const t = TestGame.lobby(7);
    const events = t.must(engine.start(t.state, { at: T0 }));
    const deals = events.filter((e) => e.type === 'role_assigned');
    expect(deals).toHaveLength(7);
    for (const d of deals) expect(d.visibility).toEqual({ kind: 'player', playerId: d.payload.playerId });
    const team = events.find((e) => e.type === 'mafia_team')!;
    expect(team.visibility).toEqual({ kind: 'team', team: 'mafia' });
    expect(events.find((e) => e.type === 'game_started')!.visibility).toEqual({ kind: 'public' });
  });

  it('GIVEN a running game WHEN the host cancels it THEN it ends with every role revealed and nobody winning; a second cancel is refused', () => {
    const t = TestGame.started(['mafia', 'doctor', 'townsperson', 'townsperson', 'detective']);
    t.must(engine.cancel(t.state, { by: 'host', reason: 'Called off by the host.', at: t.at }));
    expect(t.state.phase).toBe('ended');
    const ended = t.events('game_ended')[0]!.payload;
    expect(ended.outcome).toEqual({ kind: 'cancelled', by: 'host', reason: 'Called off by the host.' });
    expect(Object.keys(ended.roles)).toHaveLength(5);
    expect(t.refuse(engine.cancel(t.state, { by: 'host', reason: 'again', at: t.at })).code).toBe('game_over');
  });
});
