import { EmbedBuilder, type BaseMessageOptions } from 'discord.js';
import { getRole, type Faction } from '../../game/index.ts';
import type { ServerStats, SideRecord, UserStats } from '../../db/stats-store.ts';
import { COLOURS, NO_MENTIONS } from './format.ts';

const SIDE_NAME: Record<Faction, string> = { town: 'Town', mafia: 'Mafia', neutral: 'Neutral' };

function percent(part: number, whole: number): string {
  return whole === 0 ? '—' : `${Math.round((part / whole) * 100)}%`;
}

function sideLine(side: Faction, record: SideRecord): string {
  return `${SIDE_NAME[side]}: ${record.won}/${record.played} won (${percent(record.won, record.played)})`;
}

type Field = { name: string; value: string };

function userStatsEmbed(name: string, stats: UserStats, rating: Field): EmbedBuilder {
  const embed = new EmbedBuilder().setTitle(`${name}: Mafia record`).setColor(COLOURS.info);
  if (stats.gamesPlayed === 0) return embed.setDescription('No finished games in this server yet.').addFields(rating);
  const sides = (Object.keys(stats.bySide) as Faction[]).filter((s) => stats.bySide[s].played > 0);
  return embed.setDescription(`${stats.gamesPlayed} games, ${stats.wins} won (${percent(stats.wins, stats.gamesPlayed)}).`).addFields(
    { name: 'By side', value: sides.map((s) => sideLine(s, stats.bySide[s])).join('\n') },
    {
      name: 'Roles played',
      value: stats.roles
        .map((r) => `${getRole(r.role).name} ×${r.times}`)
        .join(', ')
        .slice(0, 1024),
    },
    { name: 'Survived', value: `${stats.survived} of ${stats.gamesPlayed} (${percent(stats.survived, stats.gamesPlayed)})` },
    rating,
  );
}

function serverStatsEmbed(serverName: string, stats: ServerStats, topRated: Field): EmbedBuilder {
  const embed = new EmbedBuilder().setTitle(`${serverName}: Mafia in this server`).setColor(COLOURS.info);
  if (stats.gamesFinished === 0) return embed.setDescription('No finished games in this server yet. Open one with `/mafia create`.');
  const n = stats.gamesFinished;
  return embed.setDescription(`${n} games finished.`).addFields(
    {
      name: 'Winners',
      value: [
        `Town: ${stats.townWins} (${percent(stats.townWins, n)})`,
        `Mafia: ${stats.mafiaWins} (${percent(stats.mafiaWins, n)})`,
        `Draws: ${stats.draws}`,
      ].join('\n'),
    },
    { name: 'Average length', value: `${(stats.averageDays ?? 0).toFixed(1)} days` },
    {
      name: 'Most played personas',
      value:
        stats.topPersonas.length > 0
          ? stats.topPersonas
              .map((p, i) => `${i + 1}. ${p.name} (${p.games})`)
              .join('\n')
              .slice(0, 1024)
          : 'No AI seats yet.',
    },
    topRated,
  );
}

/** A person's record and rating beside the server's. */
export function statsMessage(
  user: { name: string; stats: UserStats; rating: Field },
  server: { name: string; stats: ServerStats; topRated: Field },
): BaseMessageOptions {
  return {
    embeds: [userStatsEmbed(user.name, user.stats, user.rating), serverStatsEmbed(server.name, server.stats, server.topRated)],
    allowedMentions: NO_MENTIONS,
  };
}
