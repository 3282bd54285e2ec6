import type { GameState } from '../state.ts';
import { getRole } from './registry.ts';
import type { NightMemory } from './role.ts';

/**
 * What the night in `state`, now resolving, leaves for later nights: each role notes its own action.
 * Protections count for the next night only, so they start afresh; shots add up over the game.
 */
export function rememberNight(state: GameState): NightMemory {
  let memory: NightMemory = { lastProtected: {}, shotsUsed: state.shotsUsed };
  for (const player of state.players) {
    const remember = player.role === null ? undefined : getRole(player.role).rememberNight;
    if (remember) memory = remember(memory, player, state.night.actions[player.id]?.targetId ?? null);
  }
  return memory;
}
