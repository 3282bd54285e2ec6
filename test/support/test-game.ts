import { expect } from 'vitest';
import * as engine from '../../src/game/index.ts';
import type { Change, GameError, GameState, PlayerState, RoleId, RulesInput, VoteTarget } from '../../src/game/index.ts';
import type { Result } from '../../src/result.ts';

export const T0 = Date.UTC(2026, 0, 1);

/** A game under test: commands go through the real engine; players are found by role. */
export class TestGame {
  at = T0;

  private constructor(public state: GameState) {}

  /** A game in the lobby with `count` human players named P1…Pn. */
  static lobby(count: number, settings: engine.SettingsInput = {}, seed = 7): TestGame {
    const liveGame = new TestGame(ok(engine.createGame({ gameId: 'test', seed, settings, at: T0 })).state);
    for (let i = 1; i <= count; i++)
      liveGame.must(engine.join(liveGame.state, { player: { id: `p${i}`, name: `P${i}`, kind: 'human' }, at: T0 }));
    return liveGame;
  }

  /** A started game (night 1) with these players (ids p1…pn, in seat order) and exactly these roles dealt among them. */
  static seated(
    players: readonly { name: string; kind: engine.PlayerKind }[],
    roles: RoleId[],
    rules: RulesInput = {},
    seed = 7,
  ): TestGame {
    const created = ok(engine.createGame({ gameId: 'test', seed, settings: { setup: { kind: 'custom', roles }, rules }, at: T0 }));
    const liveGame = new TestGame(created.state);
    players.forEach((player, i) => liveGame.must(engine.join(liveGame.state, { player: { id: `p${i + 1}`, ...player }, at: T0 })));
    liveGame.must(engine.start(liveGame.state, { at: liveGame.at }));
    return liveGame;
  }

  /** A started game (night 1) with exactly these roles dealt. */
  static started(roles: RoleId[], rules: RulesInput = {}, seed = 7): TestGame {
    const liveGame = TestGame.lobby(roles.length, { setup: { kind: 'custom', roles }, rules }, seed);
    liveGame.must(engine.start(liveGame.state, { at: liveGame.at }));
    return liveGame;
  }

  /** The n-th (0-based, by seat) living-or-dead player holding `role`. */
  by(role: RoleId, n = 0): PlayerState {
    const found = this.state.players.filter((p) => p.role === role)[n];
    if (!found) throw new Error(`no ${role} #${n} at this table`);
    return found;
  }

  player(id: string): PlayerState {
    return engine.findPlayer(this.state, id)!;
  }

  /** Applies a result that must succeed and returns its events. */
  must(result: Result<Change, GameError>): readonly engine.GameEvent[] {
    const done = ok(result);
    this.state = done.state;
    return done.events;
  }

  /** Tries a command; on refusal, checks that nothing changed and returns the error. */
  refuse(result: Result<Change, GameError>): engine.GameError {
    if (result.ok) throw new Error(`expected a refusal, got ${result.value.events.map((e) => e.type).join(', ')}`);
    return result.error;
  }

  act(actor: PlayerState, target: PlayerState | null): Result<Change, GameError> {
    return engine.act(this.state, { actorId: actor.id, targetId: target?.id ?? null, at: this.tick() });
  }

  vote(voter: PlayerState, target: PlayerState | 'no_lynch'): Result<Change, GameError> {
    const targetId: VoteTarget = target === 'no_lynch' ? target : target.id;
    return engine.vote(this.state, { voterId: voter.id, targetId, at: this.tick() });
  }

  nominate(by: PlayerState, target: PlayerState): Result<Change, GameError> {
    return engine.nominate(this.state, { playerId: by.id, targetId: target.id, at: this.tick() });
  }

  second(by: PlayerState, target: PlayerState): Result<Change, GameError> {
    return engine.second(this.state, { playerId: by.id, targetId: target.id, at: this.tick() });
  }

  say(speaker: PlayerState, text: string, channel: engine.SpeechChannel = 'town'): Result<Change, GameError> {
    return engine.speak(this.state, { playerId: speaker.id, channel, text, at: this.tick() });
  }

  /** Jumps the clock to the phase deadline and advances. */
  advance(): readonly engine.GameEvent[] {
    this.at = Math.max(this.at, this.state.deadline ?? this.at);
    return this.must(engine.advance(this.state, { at: this.at }));
  }

  /** Advances at least once, then until the game reaches `phase` (at most 10 steps). */
  advanceTo(phase: engine.Phase): void {
    this.advance();
    for (let i = 0; i < 10 && this.state.phase !== phase; i++) this.advance();
    expect(this.state.phase).toBe(phase);
  }

  events<T extends engine.EventType>(type: T): engine.GameEventOf<T>[] {
    return this.state.log.filter((e): e is engine.GameEventOf<T> => e.type === type);
  }

  private tick(): number {
    this.at += 1000;
    return this.at;
  }
}

function ok(result: Result<Change, GameError>): Change {
  if (!result.ok) throw new Error(`engine refused: ${result.error.code}: ${result.error.message}`);
  return result.value;
}
