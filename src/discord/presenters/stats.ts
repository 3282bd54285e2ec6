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

function userStatsEmbed(name: string, stats: UserStats): EmbedBuilder {
  const embed = new EmbedBuilder().setTitle(`${name}: Mafia record`).setColor(COLOURS.info);
  if (stats.gamesPlayed === 0) return embed.setDescription('No finished games in this server yet.');
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
  );
}

function serverStatsEmbed(serverName: string, stats: ServerStats): EmbedBuilder {
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
  );
}

/** A person's record beside the server's. */
export function statsMessage(user: { name: string; stats: UserStats }, server: { name: string; stats: ServerStats }): BaseMessageOptions {
  return { embeds: [userStatsEmbed(user.name, user.stats), serverStatsEmbed(server.name, server.stats)], allowedMentions: NO_MENTIONS };
}
