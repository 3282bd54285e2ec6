import {
  PermissionFlagsBits,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type StringSelectMenuInteraction,
} from 'discord.js';
import type { PersonaStore } from '../../db/persona-store.ts';
import type { StatsStore } from '../../db/stats-store.ts';
import type { GuildRatings } from '../../report/guild-ratings.ts';
import type { Actor } from '../../persona/permissions.ts';
import type { Logger } from '../../log.ts';
import type { LiveGame } from '../../discord/live-game.ts';
import type { LiveGames } from '../../discord/live-games.ts';
import { handlersOf } from '../handlers.ts';

/** What the /mafia handlers share. */
export interface MafiaDeps {
  readonly liveGames: LiveGames;
  readonly personas: PersonaStore;
  readonly stats: StatsStore;
  readonly ratings: GuildRatings;
  readonly log: Logger;
}

export type MafiaInteraction = ChatInputCommandInteraction | ButtonInteraction | StringSelectMenuInteraction;

export const NEEDS_SERVER = 'Mafia games live in a server channel: use this command there, not in DMs.';
export const HOST_ONLY = 'Only the host of this game can do that.';

/** How the /mafia modules declare their handlers; every refusal goes to the person alone (`reply.privately`), and nothing changed. */
export const mafiaCommand = handlersOf<MafiaDeps>();

export function isHost(game: LiveGame, userId: string): boolean {
  return game.hostId === userId;
}

export function canManageServer(i: MafiaInteraction): boolean {
  return i.memberPermissions?.has(PermissionFlagsBits.ManageGuild) ?? false;
}

/** The name a person is seated under: their server nickname, else their display name. */
export function seatName(i: MafiaInteraction): string {
  const member = i.member;
  if (member && 'displayName' in member && typeof member.displayName === 'string') return member.displayName;
  if (member && 'nick' in member && typeof member.nick === 'string' && member.nick) return member.nick;
  return i.user.displayName;
}

export function actorOf(i: MafiaInteraction): Actor {
  return { userId: i.user.id, guildId: i.guildId, canManageServer: canManageServer(i) };
}
