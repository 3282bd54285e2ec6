import { plainText } from '../../plain-text.ts';
import { ActionRowBuilder, ButtonBuilder, ButtonStyle, EmbedBuilder, StringSelectMenuBuilder, type BaseMessageOptions } from 'discord.js';
import { countVotes, findPlayer, nominees, type GameEvent, type GameState } from '../../game/index.ts';

type Tally = ReturnType<typeof countVotes>;
import { COLOURS, NO_MENTIONS, nameOf, relativeTime } from './format.ts';

export const VOTE_SELECT = 'vote';
export const UNVOTE_BUTTON = 'unvote';
export const NO_LYNCH_VALUE = '__no_lynch__';

function tallyLines(state: GameState, tally: Tally['tally']): string[] {
  return tally.map(
    (t) =>
      `**${t.targetId === 'no_lynch' ? 'No lynch' : nameOf(state, t.targetId)}** — ${t.voters.length}: ${t.voters.map((v) => nameOf(state, v)).join(', ')}`,
  );
}

/** Room for the voters' lines in the embed (Discord allows 4,096 characters in a description). */
const SAID_BUDGET = 3000;

/**
 * Whether a speech was said with its speaker's vote, in one change (the AI driver's vote and its
 * line): such a line stands beside the tally in the vote message, not in a message of its own.
 */
export function saidWithVote(events: readonly GameEvent[], speech: Extract<GameEvent, { type: 'speech' }>): boolean {
  return (
    speech.payload.channel === 'town' &&
    events.some((e) => e.type === 'vote_cast' && e.payload.voterId === speech.payload.playerId && e.at === speech.at)
  );
}

/** What the AI players said with their votes in this vote: latest per voter, in the order said. */
function votersLines(state: GameState): string[] {
  const opened = state.log.findLastIndex((e) => e.type === 'phase_started' && e.payload.phase === 'vote');
  if (opened < 0) return [];
  const events = state.log.slice(opened);
  const said = new Map<string, string>();
  for (const e of events) {
    if (e.type !== 'speech' || findPlayer(state, e.payload.playerId)?.kind !== 'ai' || !saidWithVote(events, e)) continue;
    said.delete(e.payload.playerId);
    said.set(e.payload.playerId, e.payload.text);
  }
  const lines: string[] = [];
  let room = SAID_BUDGET;
  for (const [id, text] of said) {
    const line = `${nameOf(state, id)}: “${plainText(text)}”`;
    if (line.length > room) break;
    room -= line.length + 1;
    lines.push(line);
  }
  return lines;
}

/** The live vote: tally, deadline, and the menu to vote with (everyone sees the same message). */
export function voteMessage(state: GameState): BaseMessageOptions {
  const { tally } = countVotes(state);
  const onTrial = state.settings.rules.dayStyle === 'trial' ? nominees(state) : null;
  // A trial day's vote offers only the accused.
  const living = state.players.filter((p) => p.alive && (onTrial === null || onTrial.includes(p.id)));
  const needed = state.settings.rules.voteMode === 'majority' ? Math.floor(living.length / 2) + 1 : null;
  const lines = tallyLines(state, tally);
  const said = votersLines(state);
  const waiting = living.filter((p) => !(p.id in state.votes)).map((p) => p.name);
  const embed = new EmbedBuilder()
    .setColor(COLOURS.day)
    .setTitle(`Day ${state.day}: the vote`)
    .setDescription(
      [
        lines.length > 0 ? lines.join('\n') : 'No votes yet.',
        ...(said.length > 0 ? ['', ...said] : []),
        '',
        needed ? `A lynch needs ${needed} votes.` : 'Most votes lynches; a tie lynches nobody.',
        waiting.length > 0 ? `Still to vote: ${waiting.join(', ')}` : 'Everyone has voted.',
        state.deadline ? `Closes ${relativeTime(state.deadline)}.` : '',
      ]
        .join('\n')
        .trim(),
    );
  const menu = new StringSelectMenuBuilder()
    .setCustomId(`${VOTE_SELECT}:${state.id}:${String(state.day)}`)
    .setPlaceholder('Vote to lynch…')
    .addOptions(
      ...living.slice(0, 24).map((p) => ({ label: p.name.slice(0, 100), value: p.id })),
      ...(state.settings.rules.allowNoLynch ? [{ label: 'No lynch', value: NO_LYNCH_VALUE }] : []),
    );
  const unvote = new ButtonBuilder()
    .setCustomId(`${UNVOTE_BUTTON}:${state.id}:${String(state.day)}`)
    .setLabel('Withdraw my vote')
    .setStyle(ButtonStyle.Secondary);
  return {
    embeds: [embed],
    components: [
      new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(menu),
      new ActionRowBuilder<ButtonBuilder>().addComponents(unvote),
    ],
    allowedMentions: NO_MENTIONS,
  };
}

const CLOSED_REASON: Record<Tally['reason'], string> = {
  plurality: 'Most votes lynches.',
  majority: 'A majority lynches.',
  tie: 'A tie: nobody is lynched.',
  no_majority: 'No majority: nobody is lynched.',
  no_lynch: 'The town chose not to lynch.',
  no_votes: 'Nobody voted.',
  no_nominees: 'Nobody stood accused: no trial, no lynch.',
};

/**
 * The vote message once the latest vote is over, without its menu. The tally is the one the
 * engine resolved (its vote_resolved event), not a recount: a recount after the lynch drops the
 * lynched player's own vote, since the dead do not count.
 */
export function closedVoteMessage(state: GameState): BaseMessageOptions {
  const opened = state.log.findLast((e) => e.type === 'phase_started' && e.payload.phase === 'vote');
  const day = opened?.type === 'phase_started' ? opened.payload.day : state.day;
  const resolved = state.log.findLast((e) => e.type === 'vote_resolved' && (opened === undefined || e.seq > opened.seq));
  const embed = new EmbedBuilder().setColor(COLOURS.day).setTitle(`Day ${day}: the vote (closed)`);
  if (resolved?.type === 'vote_resolved') {
    const { tally, lynchedId, reason } = resolved.payload;
    const lines = tallyLines(state, tally);
    const outcome = lynchedId ? `${nameOf(state, lynchedId)} is lynched.` : CLOSED_REASON[reason];
    const said = votersLines(state);
    embed.setDescription(
      [lines.length > 0 ? lines.join('\n') : 'No votes.', ...(said.length > 0 ? ['', ...said] : []), '', outcome].join('\n'),
    );
  } else {
    // Ended before it was counted (the game was called off).
    embed.setDescription('The vote was not counted: the game ended first.');
  }
  return { embeds: [embed], components: [], allowedMentions: NO_MENTIONS };
}
