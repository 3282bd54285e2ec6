import type { GameState, PlayerState } from '../state.ts';
import { defineRole } from './role.ts';

function shotsLeft(state: GameState, actor: PlayerState): number {
  return state.settings.rules.vigilanteShots - (state.shotsUsed[actor.id] ?? 0);
}

export const vigilante = defineRole({
  id: 'vigilante',
  name: 'Vigilante',
  faction: 'town',
  summary: 'May shoot a player at night, a limited number of times.',
  card:
    'You are the Vigilante. At night you may shoot one player, or hold your fire; your shots are limited, ' +
    'so spend them on players you are sure of. A Doctor can save your target. ' +
    'You win with the town when no Mafia remain.',
  nightAction: 'shoot',
  investigatedAs: 'innocent',
  selfTarget: false,
  canActTonight: (state, actor) => shotsLeft(state, actor) > 0,
  checkTarget: ({ state, actor, target }) => (target && shotsLeft(state, actor) <= 0 ? 'You have no shots left.' : null),
  // A shot is spent when fired, whether or not it kills; holding fire costs nothing.
  rememberNight: (memory, actor, targetId) =>
    targetId
      ? { lastProtected: memory.lastProtected, shotsUsed: { ...memory.shotsUsed, [actor.id]: (memory.shotsUsed[actor.id] ?? 0) + 1 } }
      : memory,
});
