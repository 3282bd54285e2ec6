import { getRole, narrate, type GameState } from '../game/index.ts';
import { directorsCut } from '../agents/directors-cut.ts';
import { beliefSection } from './belief-lines.ts';
import { plainText } from '../plain-text.ts';

/**
 * The director's cut as a Markdown file: roles, the public record, then every AI seat's private
 * reasoning per decision. Only for ended games.
 */
export function directorsCutFile(state: GameState, title: string): { name: string; content: string } | null {
  if (state.phase !== 'ended') return null;
  const lines = [`# ${title} — the director's cut`, '', '| Seat | Player | Role | Fate |', '| --- | --- | --- | --- |'];
  for (const p of state.players) {
    lines.push(
      `| ${p.seat} | ${plainText(p.name)} | ${p.role ? getRole(p.role).name : '?'} | ${p.alive ? 'survived' : `died day ${p.death?.day} (${p.death?.cause})`} |`,
    );
  }
  lines.push('', '## The public record', '');
  for (const e of state.log) {
    if (e.visibility.kind !== 'public' || e.type === 'player_joined' || e.type === 'game_created') continue;
    const line = narrate(state, e, plainText);
    if (line) lines.push(`- ${line}`);
  }
  lines.push(...beliefSection(state));
  lines.push('', '## Behind the scenes', ...directorsCut(state));
  return { name: `directors-cut-${state.id}.md`, content: `${lines.join('\n')}\n` };
}
