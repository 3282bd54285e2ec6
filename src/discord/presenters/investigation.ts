import type { BaseMessageOptions } from 'discord.js';
import { getRole, viewFor, type GameEvent, type GameState, type PlayerView } from '../../game/index.ts';
import { boldName, NO_MENTIONS } from './format.ts';

type Investigation = PlayerView['investigations'][number];

/** Discord's limit on an embed field's value. */
const FIELD_MAX = 1024;

/** A DM for one person, for the output to send. */
interface PrivateMessage {
  readonly to: { readonly userId: string; readonly name: string };
  readonly message: BaseMessageOptions;
}

/**
 * The Mafia roles of the public role list that read as not Mafia (the Godfather): an "innocent"
 * result says no more than the engine does, so where such a role is dealt the Detective is told
 * it could be one, never plainly "not Mafia" of someone who may be.
 */
function hiddenMafia(view: PlayerView): string | null {
  const hidden = [...new Set(view.rolesInPlay)].map(getRole).filter((r) => r.faction === 'mafia' && r.investigatedAs === 'innocent');
  return hidden.length > 0 ? hidden.map((r) => `the ${r.name}`).join(' or ') : null;
}

function targetName(view: PlayerView, i: Investigation): string {
  return boldName(view.seats.find((s) => s.id === i.targetId)?.name ?? 'someone');
}

/**
 * At dawn each human Detective the engine told a result gets it by DM, built from their own view
 * (viewFor is the one gate for secrets). Only the events just published: a restarted process
 * publishes nothing it had stored before, so no result goes twice.
 */
export function investigationResultDms(events: readonly GameEvent[], state: GameState): PrivateMessage[] {
  const dms: PrivateMessage[] = [];
  for (const e of events) {
    if (e.type !== 'investigation_result') continue;
    const detective = state.players.find((p) => p.id === e.payload.detectiveId);
    const view = viewFor(state, e.payload.detectiveId);
    const result = view?.investigations.find((i) => i.night === e.payload.night && i.targetId === e.payload.targetId);
    if (detective?.kind !== 'human' || !detective.userId || !view || !result) continue;
    const hidden = hiddenMafia(view);
    const verdict =
      result.result === 'mafia'
        ? 'is Mafia.'
        : hidden
          ? `is not Mafia, unless they are ${hidden} (who reads as innocent).`
          : 'is not Mafia.';
    dms.push({
      to: { userId: detective.userId, name: detective.name },
      message: {
        content: `🔎 Your investigation (night ${result.night}): ${targetName(view, result)} ${verdict}`,
        allowedMentions: NO_MENTIONS,
      },
    });
  }
  return dms;
}

/** Every result so far, one line a night (the newest kept within Discord's limit), for the person's own card; null before the first. */
export function investigationsField(view: PlayerView): { name: string; value: string } | null {
  if (view.investigations.length === 0) return null;
  const hidden = hiddenMafia(view);
  const note = hidden ? `\n(Each "not Mafia" may be ${hidden}, who reads as innocent.)` : '';
  const lines = view.investigations.map(
    (i) => `Night ${i.night}: ${targetName(view, i)} ${i.result === 'mafia' ? 'is Mafia' : 'is not Mafia'}`,
  );
  while (lines.length > 1 && lines.join('\n').length + note.length > FIELD_MAX) lines.shift();
  return { name: 'Your investigations', value: lines.join('\n') + note };
}
