import type { Timers } from '../clock.ts';
import * as engine from '../game/index.ts';
import type { Change, GameError, GameState } from '../game/index.ts';
import type { Result } from '../result.ts';

/** "an hour", "2 hours", "a minute", "15 minutes": how long a lobby may stay idle, as the channel is told. */
function idleSpan(minutes: number): string {
  if (minutes % 60 === 0) return minutes === 60 ? 'an hour' : `${minutes / 60} hours`;
  return minutes === 1 ? 'a minute' : `${minutes} minutes`;
}

/** When a lobby last changed: its newest stored event (a seat taken or given up, a line said in it). */
function lastActivity(state: GameState): number {
  return state.log.at(-1)?.at ?? 0;
}

/**
 * Closes a lobby idle for `idleMinutes` as a host's `/mafia end` would (stored as called off, so a
 * restart does not bring it back). Refused when something happened in it since the timer was set:
 * that change set a timer of its own.
 */
export function closeIdleLobby(state: GameState, at: number, idleMinutes: number): Result<Change, GameError> {
  if (state.phase !== 'lobby') return engine.fail('game_started', 'The game has started; only lobbies expire.');
  if (at < lastActivity(state) + idleMinutes * 60_000) return engine.fail('not_due', 'The lobby was used since; it stays open.');
  const reason = `the lobby closed after ${idleSpan(idleMinutes)} without activity; /mafia create opens a new one`;
  return engine.cancel(state, { by: null, reason, at });
}

/**
 * One timer per open lobby, set again at each change to it, counted from its last stored change (so
 * a restart re-arms it where it was): a lobby idle that long is handed to `expire`, at once when
 * that time passed while no bot ran.
 */
export class LobbyExpiry {
  private readonly armed = new Map<string, () => void>();

  constructor(
    private readonly timers: Timers,
    private readonly idleMinutes: number,
    private readonly expire: (gameId: string) => void,
  ) {}

  /** Sets the game's timer from its last activity while it is a lobby; forgets it once it is not. */
  arm(state: GameState): void {
    this.disarm(state.id);
    if (state.phase !== 'lobby') return;
    const due = lastActivity(state) + this.idleMinutes * 60_000;
    if (due <= this.timers.now()) {
      this.expire(state.id);
      return;
    }
    const cancel = this.timers.at(due, () => {
      this.armed.delete(state.id);
      this.expire(state.id);
    });
    this.armed.set(state.id, cancel);
  }

  disarm(gameId: string): void {
    this.armed.get(gameId)?.();
    this.armed.delete(gameId);
  }

  disarmAll(): void {
    for (const gameId of [...this.armed.keys()]) this.disarm(gameId);
  }

  /** Lobbies with a timer set: what a long run watches stay flat. */
  get size(): number {
    return this.armed.size;
  }
}
