import { getRole, narrate, type GameState } from '../game/index.ts';

/**
 * The post-game reveal: each seat's role, then everything it did and thought in private,
 * in order. Only for ended games: it shows what play must never show.
 */
export function directorsCut(state: GameState): string[] {
  const out: string[] = [];
  for (const p of state.players) {
    out.push('', `## ${p.name} — ${p.role ? getRole(p.role).name : 'no role'}${p.alive ? '' : ` (died day ${p.death?.day}, ${p.death?.cause})`}`);
    for (const e of state.log) {
      if (e.type === 'reasoning' && e.payload.playerId === p.id) {
        out.push(`- ${e.payload.phase === 'night' ? 'Night' : 'Day'} ${e.payload.day}, ${e.payload.decision}: ${e.payload.text}`);
      } else if (e.visibility.kind === 'player' && e.visibility.playerId === p.id && e.type !== 'role_assigned') {
        const line = narrate(state, e);
        if (line) out.push(`- ${line}`);
      } else if (e.type === 'speech' && e.payload.channel === 'mafia' && e.payload.playerId === p.id) {
        out.push(`- ${narrate(state, e)}`);
      }
    }
  }
  return out;
}
