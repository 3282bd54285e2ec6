import type { BaseMessageOptions } from 'discord.js';
import { hasNightAction, type GameState, type PlayerState } from '../../game/index.ts';
import { NO_MENTIONS, relativeTime } from './format.ts';
import { nightActionMessage } from './night-action.ts';

/**
 * Reminders may come this long before each deadline (ms). A phase gets one: the earliest that is at
 * most half the phase (a reminder 60 s before the end of a 90 s vote would come a third of the way
 * in: noise). One is enough, since Discord counts its relative time down on every screen.
 */
export const REMINDER_OFFSETS_MS: readonly number[] = [60_000, 15_000];

/** How long the current phase runs, from its phase_started event to its deadline. */
function phaseLengthMs(state: GameState): number | null {
  const started = state.log.findLast((e) => e.type === 'phase_started');
  if (started?.type !== 'phase_started' || started.payload.deadline === null) return null;
  return started.payload.deadline - started.at;
}

/** Whether the reminder `msLeft` before the deadline is the phase's one reminder. */
export function reminderDue(state: GameState, msLeft: number): boolean {
  const length = phaseLengthMs(state);
  if (state.deadline === null || length === null) return false;
  const fitting = REMINDER_OFFSETS_MS.filter((offset) => offset * 2 <= length);
  return fitting.length > 0 && msLeft === Math.max(...fitting);
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

/**
 * The channel's reminder, from public facts only (who has not voted is public; who owes a night
 * action is not), or null when it would tell nobody anything: at night the people who owe an action
 * get it by DM with their menu (a channel line would only say that someone does), and last words
 * are announced with their end, named for the lynched, which Discord counts down (a reminder would
 * say it again moments later).
 */
export function reminderMessage(state: GameState): BaseMessageOptions | null {
  if (state.deadline === null) return null;
  const when = relativeTime(state.deadline);
  switch (state.phase) {
    case 'day':
      return state.settings.rules.dayStyle === 'trial'
        ? { content: `⏳ Day ${state.day}'s discussion ends ${when}; the nominees' defenses follow.`, allowedMentions: NO_MENTIONS }
        : { content: `⏳ Day ${state.day} ends ${when}; the vote follows.`, allowedMentions: NO_MENTIONS };
    case 'vote': {
      const waiting = state.players.filter((p) => p.alive && !(p.id in state.votes)).map((p) => p.name);
      const who = waiting.length > 0 ? ` Not voted yet: ${waiting.join(', ')}.` : '';
      return { content: `⏳ The vote closes ${when}.${who}`, allowedMentions: NO_MENTIONS };
    }
    case 'last_words':
    case 'defense':
    case 'night':
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
