import { getRole, narrate, type FallbackCategory, type GameEventOf, type GameState, type ReasoningOutcome } from '../game/index.ts';

const FALLBACK: Record<FallbackCategory, string> = {
  timeout: 'timeout',
  rate_limited: 'rate limited',
  refused: 'refused',
  invalid_answer: 'invalid answer',
  auth_failed: 'auth failed',
  model_unavailable: 'model unavailable',
  budget_spent: 'budget spent',
  provider_error: 'provider error',
  restart: 'restart',
};

/** How the director's cut and the replay name why the offline brain decided. */
export function fallbackLabel(category: FallbackCategory): string {
  return FALLBACK[category];
}

/** What became of a decision, beside its label: only moves that counted go unmarked. */
function marks(payload: { outcome?: ReasoningOutcome | undefined; fallback?: FallbackCategory | undefined }): string {
  const notes: string[] = [];
  if (payload.fallback) notes.push(`offline fallback: ${fallbackLabel(payload.fallback)}`);
  if (payload.outcome === 'late') notes.push('too late, did not count');
  else if (payload.outcome === 'refused') notes.push('refused by the rules, did not count');
  return notes.length > 0 ? ` (${notes.join('; ')})` : '';
}

/** One decision's reasoning as the cut shows it: "Night 1, kill (offline fallback: timeout): …"; `text` escapes what the seat wrote. */
export function reasoningEntry(payload: GameEventOf<'reasoning'>['payload'], text: (written: string) => string = (t) => t): string {
  return `${payload.phase === 'night' ? 'Night' : 'Day'} ${payload.day}, ${payload.decision}${marks(payload)}: ${text(payload.text)}`;
}

/**
 * The post-game reveal: each seat's role, then everything it did and thought in private,
 * in order. Only for ended games: it shows what play must never show.
 */
export function directorsCut(state: GameState): string[] {
  const out: string[] = [];
  for (const p of state.players) {
    out.push(
      '',
      `## ${p.name} — ${p.role ? getRole(p.role).name : 'no role'}${p.alive ? '' : ` (died day ${p.death?.day}, ${p.death?.cause})`}`,
    );
    for (const e of state.log) {
      if (e.type === 'reasoning' && e.payload.playerId === p.id) {
        out.push(`- ${reasoningEntry(e.payload)}`);
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
