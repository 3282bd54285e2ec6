import type { DeathCause } from './events.ts';
import type { GameEvent, GameEventOf } from './events.ts';
import { DELETED_SPEECH } from './speech-rewrites.ts';
import { getRole } from './roles/registry.ts';
import type { GameState, Phase } from './state.ts';

const CAUSE: Record<DeathCause, string> = {
  left: 'left the game',
  mafia: 'was killed by the Mafia',
  vigilante: 'was shot by the Vigilante',
  lynch: 'was lynched by the town',
};

const asWritten = (written: string): string => written;

/** How each phase is called when shown to people. */
export const PHASE_TITLE = {
  lobby: 'Lobby',
  night: 'Night',
  dawn: 'Dawn',
  day: 'Day',
  defense: 'Defense',
  vote: 'Vote',
  last_words: 'Last words',
  ended: 'The end',
} as const;

/**
 * A phase's heading in the record (the director's cut, the replay). The channel announces the day
 * with its dawn, so the dawn opens "Day d" and what is said at dawn reads under it; the talk that
 * follows is part of that day.
 */
export function phaseHeading(phase: Phase, day: number): string {
  if (phase === 'ended') return PHASE_TITLE.ended;
  if (phase === 'dawn') return `Day ${day}`;
  if (phase === 'day') return `Day ${day}: talk`;
  return `${PHASE_TITLE[phase]} ${day}`;
}

/** A speech's words as people are shown them: marked when edited, the placeholder when deleted. */
export function spokenText(payload: GameEventOf<'speech'>['payload']): string {
  if (payload.deleted) return DELETED_SPEECH;
  return payload.edited ? `${payload.text} (edited)` : payload.text;
}

/**
 * Plain-text narration of one event, or null for events with nothing to tell. `shown` renders what
 * people and models wrote (names, speech, wills) for where the line goes: Discord escapes Markdown.
 */
export function narrate(
  state: Pick<GameState, 'players'>,
  event: GameEvent,
  shown: (written: string) => string = asWritten,
): string | null {
  const name = (id: string) => shown(state.players.find((p) => p.id === id)?.name ?? id);
  switch (event.type) {
    case 'player_joined':
      return `${shown(event.payload.player.name)} joins the table.`;
    case 'game_started':
      return `Roles in play: ${event.payload.roles.map((r) => getRole(r).name).join(', ')}.`;
    case 'phase_started': {
      const { defendantId } = event.payload;
      return `— ${phaseHeading(event.payload.phase, event.payload.day)}${defendantId ? `: ${name(defendantId)}` : ''} —`;
    }
    case 'nominated':
      return `⚖ ${name(event.payload.nominatorId)} nominates ${name(event.payload.targetId)} for trial.`;
    case 'nomination_seconded':
      return `⚖ ${name(event.payload.seconderId)} seconds: ${name(event.payload.targetId)} stands accused.`;
    case 'defense_rested':
      return `⚖ ${name(event.payload.playerId)} rests their case.`;
    case 'night_resolved':
      return event.payload.deaths.length === 0 ? 'Nobody died in the night.' : null;
    case 'player_died': {
      const { playerId, cause, role, will } = event.payload;
      const revealed = role ? ` They were the ${getRole(role).name}.` : '';
      const testament = will ? ` Their will reads: “${shown(will)}”` : '';
      return `☠ ${name(playerId)} ${CAUSE[cause]}.${revealed}${testament}`;
    }
    case 'speech': {
      const where = event.payload.channel === 'mafia' ? ' [Mafia thread]' : event.payload.channel === 'last_words' ? ' (last words)' : '';
      return `${name(event.payload.playerId)}${where}: ${shown(spokenText(event.payload))}`;
    }
    case 'vote_cast':
      return `🗳 ${name(event.payload.voterId)} votes ${event.payload.targetId === 'no_lynch' ? 'no lynch' : name(event.payload.targetId)}.`;
    case 'vote_withdrawn':
      return `🗳 ${name(event.payload.voterId)} withdraws their vote.`;
    case 'vote_resolved': {
      const tally = event.payload.tally
        .map((t) => `${t.targetId === 'no_lynch' ? 'no lynch' : name(t.targetId)} ${t.voters.length}`)
        .join(', ');
      const verdict = event.payload.lynchedId
        ? `${name(event.payload.lynchedId)} is lynched.`
        : {
            tie: 'A tie: nobody is lynched.',
            no_majority: 'No majority: nobody is lynched.',
            no_lynch: 'The town chose not to lynch.',
            no_votes: 'Nobody voted.',
            no_nominees: 'Nobody stood accused: no trial, no lynch.',
            plurality: '',
            majority: '',
          }[event.payload.reason];
      if (event.payload.reason === 'no_nominees') return verdict;
      return `Tally: ${tally || 'no votes'}. ${verdict}`;
    }
    case 'jester_won':
      return `🃏 ${name(event.payload.playerId)} was the Jester, and wins by being lynched!`;
    case 'game_ended': {
      const { outcome } = event.payload;
      if (outcome.kind === 'win') return `🏆 The ${outcome.faction === 'town' ? 'Town' : 'Mafia'} win!`;
      if (outcome.kind === 'draw') return `The game ends in a draw: ${outcome.reason}`;
      return `The game was called off: ${outcome.reason}`;
    }
    case 'mafia_proposal':
      return `[Mafia] ${name(event.payload.actorId)} proposes ${event.payload.targetId ? name(event.payload.targetId) : 'no kill'} (round ${event.payload.round}).`;
    case 'mafia_second_round':
      return '[Mafia] No two-thirds agreement: second round.';
    case 'mafia_decision':
      return `[Mafia] Tonight's target: ${event.payload.targetId ? name(event.payload.targetId) : 'nobody'} (${event.payload.how.replace('_', ' ')}).`;
    case 'night_action':
      return `[${name(event.payload.actorId)}] ${event.payload.action} → ${event.payload.targetId ? name(event.payload.targetId) : 'nobody'}`;
    case 'investigation_result':
      return `[${name(event.payload.detectiveId)}] learns ${name(event.payload.targetId)} is ${event.payload.result}.`;
    case 'will_written':
      return `[${name(event.payload.playerId)}] writes a will: “${event.payload.text}”`;
    case 'role_assigned':
      return `[${name(event.payload.playerId)}] is the ${getRole(event.payload.role).name}.`;
    case 'day_summary':
      return `📜 Day ${event.payload.day} in short: ${event.payload.text}`;
    case 'notice':
      return `📢 ${event.payload.text}`;
    case 'seat_taken_over':
      return `🤖 ${name(event.payload.playerId)} left the server; an AI plays on in their seat.`;
    case 'speech_edited':
    case 'speech_deleted':
    case 'player_renamed':
      // The speech itself now reads as edited or deleted; what it said before is told nowhere.
      // A renamed seat shows its new name in the lobby: nothing to tell.
      return null;
    case 'game_created':
    case 'player_left':
    case 'mafia_team':
    case 'reasoning':
      return event.type === 'player_left' ? `${name(event.payload.playerId)} leaves the table.` : null;
  }
}
