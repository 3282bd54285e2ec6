import type { BaseMessageOptions } from 'discord.js';
import { hasNightAction, type GameState, type PlayerState } from '../../game/index.ts';
import { NO_MENTIONS, relativeTime } from './format.ts';
import { nightActionMessage } from './night-action.ts';

/** Reminders this long before each deadline (ms); each only where it is at most half the phase. */
export const REMINDER_OFFSETS_MS: readonly number[] = [60_000, 15_000];

/** How long the current phase runs, from its phase_started event to its deadline. */
function phaseLengthMs(state: GameState): number | null {
  const started = state.log.findLast((e) => e.type === 'phase_started');
  if (started?.type !== 'phase_started' || started.payload.deadline === null) return null;
  return started.payload.deadline - started.at;
}

/** A reminder 60 s before the end of a 90 s vote would come a third of the way in: that is noise, not a reminder. */
export function reminderDue(state: GameState, msLeft: number): boolean {
  const length = phaseLengthMs(state);
  return state.deadline !== null && length !== null && msLeft * 2 <= length;
}

/** Living people who still owe tonight's action (the Mafia: a proposal in the current round). */
export function owingNightAction(state: GameState): PlayerState[] {
  return state.players.filter(
    (p) =>
      p.kind === 'human' &&
      p.userId !== null &&
      hasNightAction(state, p) &&
      !(p.id in state.night.actions) &&
      !(p.id in state.night.proposals),
  );
}

/** The channel's reminder: public facts only (who has not voted is public; who owes a night action is not). */
export function reminderMessage(state: GameState): BaseMessageOptions | null {
  if (state.deadline === null) return null;
  const when = relativeTime(state.deadline);
  switch (state.phase) {
    case 'night':
      return {
        content: `⏳ Night ${state.day} ends ${when}. If you have a night action, your DMs hold the menu.`,
        allowedMentions: NO_MENTIONS,
      };
    case 'day':
      return { content: `⏳ Day ${state.day} ends ${when}; the vote follows.`, allowedMentions: NO_MENTIONS };
    case 'vote': {
      const waiting = state.players.filter((p) => p.alive && !(p.id in state.votes)).map((p) => p.name);
      const who = waiting.length > 0 ? ` Not voted yet: ${waiting.join(', ')}.` : '';
      return { content: `⏳ The vote closes ${when}.${who}`, allowedMentions: NO_MENTIONS };
    }
    case 'last_words':
      return { content: `⏳ Last words end ${when}.`, allowedMentions: NO_MENTIONS };
    case 'lobby':
    case 'dawn':
    case 'ended':
      return null;
  }
}

/** The DM for someone who has not chosen tonight: the deadline, and the menu again so they need not scroll. */
export function nightReminderDm(state: GameState, playerId: string): BaseMessageOptions | null {
  const menu = nightActionMessage(state, playerId);
  if (!menu || state.deadline === null) return null;
  return { ...menu, content: `⏳ Night ${state.day} ends ${relativeTime(state.deadline)} and you have not chosen yet.` };
}
