import { plainText } from '../../plain-text.ts';
import { EmbedBuilder, type BaseMessageOptions } from 'discord.js';
import { getRole, narrate, type GameEvent, type GameState } from '../../game/index.ts';
import { COLOURS, MAX_CONTENT, NO_MENTIONS, nameOf, relativeTime } from './format.ts';

// Said by their authors (people type, AI speak through webhooks), or shown elsewhere (the vote message, the lobby).
const NOT_ANNOUNCED = new Set<GameEvent['type']>([
  'speech',
  'vote_cast',
  'vote_withdrawn',
  'player_joined',
  'player_left',
  'player_renamed',
  'game_created',
]);

/**
 * Dawn is a pause between the night's news and the talk: the day is announced with the dawn, as
 * one message (so its own start posts nothing), unless there is no pause.
 */
function dayFollowsDawn(state: GameState): boolean {
  return state.settings.rules.dawnSeconds > 0;
}

/** What the channel's announcements depend on beyond the game itself. */
export interface AnnounceContext {
  /** The Mafia chat by DM (no private thread): the night line must not send them to a thread. */
  readonly mafiaByDm: boolean;
  /** The vote message stands in the channel and shows the result once closed: no tally line besides. */
  readonly voteMessageShown: boolean;
}

/** Who the vote before this event lynched. */
function lynchedBefore(state: GameState, seq: number): string | null {
  const resolved = state.log.findLast((e) => e.type === 'vote_resolved' && e.seq < seq);
  return resolved?.type === 'vote_resolved' ? resolved.payload.lynchedId : null;
}

/** What the day holds, by the game's day style. */
function dayPlan(state: GameState): string {
  const { dayStyle, nominationSeconds } = state.settings.rules;
  if (dayStyle !== 'trial') return 'talk it over. The vote follows.';
  const second = nominationSeconds ? ' (a nomination needs a second)' : '';
  return `talk it over and nominate whom to put on trial${second}; the accused defend themselves, then the town votes among them.`;
}

function phaseLine(state: GameState, event: Extract<GameEvent, { type: 'phase_started' }>, context: AnnounceContext): string {
  const { phase, day, deadline } = event.payload;
  const until = deadline ? ` (until ${relativeTime(deadline)})` : '';
  switch (phase) {
    case 'night': {
      const mafia = context.mafiaByDm ? 'the Mafia chat there too' : 'the Mafia meet in their thread';
      return `🌙 **Night ${day}** falls${until}. Check your DMs if you have a night action; ${mafia}.`;
    }
    case 'dawn':
      return `🌅 **Dawn ${day}.**`;
    case 'day':
      return dayFollowsDawn(state) ? '' : `☀️ **Day ${day}**${until}: ${dayPlan(state)}`;
    case 'defense': {
      const defendant = event.payload.defendantId;
      return `⚖️ **${defendant ? nameOf(state, defendant) : 'The defendant'} speaks in their defense**${until}; the town listens.`;
    }
    case 'vote':
      return `🗳️ **The vote is open**${until}.`;
    case 'last_words': {
      // Said once: Discord counts the deadline down, so no reminder follows.
      const lynched = lynchedBefore(state, event.seq);
      return `🕯️ **Last words**${lynched ? ` for ${nameOf(state, lynched)}` : ''}${until}.`;
    }
    case 'lobby':
    case 'ended':
      return '';
  }
}

/**
 * A day's recap is made as the night falls; recorded while that night is on, it is held for the
 * dawn (or the end, when the night ends the game) and opens its message: the players read it as
 * the next day begins, and a game saves a message a day. One recorded later goes out at once.
 */
function heldRecap(state: GameState, events: readonly GameEvent[]): Extract<GameEvent, { type: 'day_summary' }> | null {
  const moment = events.find((e) => (e.type === 'phase_started' && e.payload.phase === 'dawn') || e.type === 'game_ended');
  if (!moment) return null;
  const night = state.log.findLast((e) => e.type === 'phase_started' && e.seq < moment.seq);
  if (night?.type !== 'phase_started' || night.payload.phase !== 'night') return null;
  const recap = state.log.find((e) => e.type === 'day_summary' && e.seq > night.seq && e.seq < moment.seq);
  return recap?.type === 'day_summary' && !events.includes(recap) ? recap : null;
}

/** The public channel's messages for a batch of events: one message, split only to fit Discord's limit. */
export function announcements(state: GameState, events: readonly GameEvent[], context: AnnounceContext): BaseMessageOptions[] {
  const lines: string[] = [];
  const recap = heldRecap(state, events);
  const recapLine = recap && narrate(state, recap, plainText);
  if (recapLine) lines.push(recapLine);
  for (const e of events) {
    if (e.visibility.kind !== 'public' || NOT_ANNOUNCED.has(e.type)) continue;
    if (e.type === 'day_summary' && state.phase === 'night') continue;
    // The closed vote message tells the tally and the result; a line here would say it again.
    if (e.type === 'vote_resolved' && context.voteMessageShown) continue;
    const line = e.type === 'phase_started' ? phaseLine(state, e, context) : narrate(state, e, plainText);
    if (line) lines.push(line);
  }
  const dawn = events.find((e) => e.type === 'phase_started' && e.payload.phase === 'dawn');
  if (
    dawn?.type === 'phase_started' &&
    dawn.payload.deadline !== null &&
    dayFollowsDawn(state) &&
    !events.some((e) => e.type === 'game_ended')
  ) {
    const starts = dawn.payload.deadline;
    const ends = starts + state.settings.rules.daySeconds * 1000;
    lines.push(`☀️ **Day ${dawn.payload.day}** starts ${relativeTime(starts)} and runs until ${relativeTime(ends)}: ${dayPlan(state)}`);
  }
  const messages: BaseMessageOptions[] = [];
  let current = '';
  for (const line of lines) {
    const piece = line.length > MAX_CONTENT ? `${line.slice(0, MAX_CONTENT - 1)}…` : line;
    if (current && current.length + 1 + piece.length > MAX_CONTENT) {
      messages.push({ content: current, allowedMentions: NO_MENTIONS });
      current = '';
    }
    current = current ? `${current}\n${piece}` : piece;
  }
  const ended = events.find((e) => e.type === 'game_ended');
  // The end of the game is one moment: its last lines and every role revealed go out as one message.
  const finale = ended?.type === 'game_ended' ? endOfGame(state, ended) : null;
  if (current) messages.push({ content: current, ...(finale && { embeds: [finale] }), allowedMentions: NO_MENTIONS });
  else if (finale) messages.push({ embeds: [finale], allowedMentions: NO_MENTIONS });
  return messages;
}

/** Every role revealed, and who won. */
function endOfGame(state: GameState, event: Extract<GameEvent, { type: 'game_ended' }>): EmbedBuilder {
  const { outcome, roles, jesterWinners } = event.payload;
  const title =
    outcome.kind === 'win'
      ? `The ${outcome.faction === 'town' ? 'Town' : 'Mafia'} win!`
      : outcome.kind === 'draw'
        ? 'A draw'
        : 'Game called off';
  const lines = state.players.map((p) => {
    const role = roles[p.id];
    const fate = p.alive ? 'survived' : `died day ${p.death?.day} (${p.death?.cause})`;
    return `${p.name} — ${role ? getRole(role).name : '?'}, ${fate}${jesterWinners.includes(p.id) ? ' 🃏 won' : ''}`;
  });
  const embed = new EmbedBuilder()
    .setTitle(title)
    .setColor(outcome.kind === 'win' ? COLOURS[outcome.faction] : COLOURS.info)
    .setDescription(lines.join('\n').slice(0, 4096));
  if (outcome.kind !== 'win') embed.setFooter({ text: outcome.reason });
  if (jesterWinners.length > 0) embed.addFields({ name: 'Jester', value: jesterWinners.map((id) => nameOf(state, id)).join(', ') });
  return embed;
}
