import type { Outcome } from './events.ts';
import { isMafia } from './roles/registry.ts';
import type { GameState } from './state.ts';

/** Town wins when no Mafia remain; the Mafia win at parity. Checked after every death. */
export function winner(state: GameState): Outcome | null {
  let mafia = 0;
  let others = 0;
  for (const p of state.players) {
    if (!p.alive) continue;
    if (isMafia(p.role)) mafia++;
    else others++;
  }
  if (mafia === 0) return { kind: 'win', faction: 'town' };
  if (mafia >= others) return { kind: 'win', faction: 'mafia' };
  return null;
}
