import { EmbedBuilder, type BaseMessageOptions } from 'discord.js';
import type { RankedRating } from '../../report/guild-ratings.ts';
import { COLOURS, NO_MENTIONS } from './format.ts';

/** How many places the board shows. */
const BOARD_SIZE = 20;

const OPT_IN_HINT = '`/mafia leaderboard rate-me:true`';

/** A persona by name, a person by mention (shown as their name, never a ping). */
function who(r: RankedRating): string {
  return r.kind === 'human' ? `<@${r.subjectId}>` : `**${r.name}** (AI)`;
}

/** "skill 3.1 (μ 27.4 ± 8.1)": the conservative estimate the board ranks by, then mean and uncertainty. */
function ratingText(r: RankedRating): string {
  return `skill ${r.skill.toFixed(1)} (μ ${r.mu.toFixed(1)} ± ${r.sigma.toFixed(1)})`;
}

function boardLine(r: RankedRating): string {
  return `${r.rank}. ${who(r)}: ${ratingText(r)}, ${r.games} game${r.games === 1 ? '' : 's'}, ${r.wins} won`;
}

/** Where a person stands: their place, or how to be rated (`you`: said to them). */
function standing(board: readonly RankedRating[], userId: string, optedIn: boolean, you: boolean): string {
  const mine = board.find((r) => r.kind === 'human' && r.subjectId === userId);
  if (mine) return `#${mine.rank} of ${board.length}: ${ratingText(mine)}.`;
  if (optedIn) return you ? 'You are rated from your next finished game here.' : 'Rated from their next finished game here.';
  return you ? `You are not rated here. ${OPT_IN_HINT} to be.` : `Not rated here (people opt in with ${OPT_IN_HINT}).`;
}

/** The server's board: AI personas and the people who opted in, best first. */
export function leaderboardMessage(
  serverName: string,
  board: readonly RankedRating[],
  you: { userId: string; optedIn: boolean; notice?: string },
): BaseMessageOptions {
  const embed = new EmbedBuilder().setTitle(`${serverName}: Mafia ratings`).setColor(COLOURS.info);
  if (board.length === 0)
    embed.setDescription('No rated games in this server yet: every finished game rates its AI personas (and the people who opted in).');
  else
    embed.setDescription(board.slice(0, BOARD_SIZE).map(boardLine).join('\n')).setFooter({
      text: 'openskill (Weng-Lin) ratings from this server’s finished games, ranked by skill = μ − 3σ: wins against strong sides raise it, and it grows as the rating gets surer.',
    });
  embed.addFields({ name: 'You', value: standing(board, you.userId, you.optedIn, true) });
  return { ...(you.notice && { content: you.notice }), embeds: [embed], allowedMentions: NO_MENTIONS };
}

/** The rating line of `/mafia stats` (`you`: the person asked for their own). */
export function ratingField(
  board: readonly RankedRating[],
  who: { userId: string; optedIn: boolean; you: boolean },
): { name: string; value: string } {
  return { name: 'Rating', value: standing(board, who.userId, who.optedIn, who.you) };
}

/** The best-rated personas, for the server's stats. */
export function topRatedField(board: readonly RankedRating[], count = 3): { name: string; value: string } {
  const personas = board.filter((r) => r.kind === 'persona').slice(0, count);
  return {
    name: 'Best rated personas',
    value: personas.length > 0 ? personas.map((r, i) => `${i + 1}. ${r.name}: ${ratingText(r)}`).join('\n') : 'No rated games yet.',
  };
}
