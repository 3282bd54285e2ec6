import type { PlayerView } from '../../game/index.ts';
import { neutralise } from './quote.ts';

/**
 * Engine-owned facts for one seat (seed 001): its own night actions and results,
 * and for the Mafia the team's kill history. Facts, never interpretations.
 */
export function memoryFacts(view: PlayerView): string[] {
  const names = new Map(view.seats.map((s) => [s.id, neutralise(s.name)]));
  const name = (id: string | null): string => (id ? (names.get(id) ?? id) : 'nobody');
  const deaths = new Map<string, { cause: string; day: number }>();
  for (const e of view.events) if (e.type === 'player_died') deaths.set(e.payload.playerId, { cause: e.payload.cause, day: e.payload.day });
  const facts: string[] = [];
  let night = 0;
  for (const e of view.events) {
    if (e.type === 'phase_started' && e.payload.phase === 'night') night = e.payload.day;
    else if (e.type === 'investigation_result') {
      facts.push(
        `Night ${e.payload.night}: you investigated ${name(e.payload.targetId)}: ${e.payload.result === 'mafia' ? 'Mafia' : 'innocent'}.`,
      );
    } else if (e.type === 'night_action' && e.payload.actorId === view.me.id) {
      const verb = e.payload.action === 'protect' ? 'protected' : e.payload.action === 'shoot' ? 'shot at' : 'investigated';
      if (e.payload.action === 'investigate') continue; // the result line says it better
      const target = e.payload.targetId;
      const outcome =
        e.payload.action === 'shoot' && target ? (deaths.get(target)?.day === night ? ' (they died)' : ' (they survived)') : '';
      facts.push(`Night ${night}: you ${target ? `${verb} ${name(target)}` : 'did nothing'}${outcome}.`);
    } else if (e.type === 'mafia_decision') {
      const target = e.payload.targetId;
      const died = target !== null && deaths.get(target)?.day === night && deaths.get(target)?.cause === 'mafia';
      facts.push(`Night ${night}: the Mafia targeted ${name(target)}${target ? (died ? ' — killed' : ' — survived') : ''}.`);
    } else if (e.type === 'will_written' && e.payload.playerId === view.me.id) {
      // Only the latest will matters; it is shown with the seat's own status, not as a fact.
    }
  }
  return facts;
}
