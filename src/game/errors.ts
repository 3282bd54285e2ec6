import { err, type Result } from '../result.ts';
import type { GameEvent } from './events.ts';
import type { GameState } from './state.ts';

export type GameErrorCode =
  | 'bad_settings'
  | 'bad_setup'
  | 'wrong_phase'
  | 'game_over'
  | 'game_started'
  | 'game_full'
  | 'already_joined'
  | 'not_in_game'
  | 'dead'
  | 'no_action'
  | 'unknown_target'
  | 'dead_target'
  | 'self_target'
  | 'invalid_target'
  | 'rule_disabled'
  | 'bad_text'
  | 'not_due'
  | 'chat_limit'
  /** An edit or deletion of a message the game never took (or already deleted). */
  | 'no_speech';

/** A refusal a person can read. A command that fails changes nothing. */
export interface GameError {
  readonly code: GameErrorCode;
  readonly message: string;
}

/** What an accepted command did: the events it made and the state they lead to. */
export interface Change {
  readonly state: GameState;
  readonly events: readonly GameEvent[];
}

export function fail(code: GameErrorCode, message: string): Result<never, GameError> {
  return err({ code, message });
}
