import { z } from 'zod';
import { getRole, OutcomeSchema, RoleIdSchema, type Faction, type RoleId } from '../game/index.ts';
import type { Prisma, PrismaClient } from './generated/client.ts';
import { fromPrismaJson } from './prisma-json.ts';

/** What the game_ended event says about the result; the rest of its payload is not needed here. */
const EndedSchema = z.object({ outcome: OutcomeSchema, jesterWinners: z.array(z.string()) });
type Ended = z.infer<typeof EndedSchema>;

export interface SideRecord {
  readonly played: number;
  readonly won: number;
}

/** One person's finished games in one server (games called off do not count). */
export interface UserStats {
  readonly gamesPlayed: number;
  readonly wins: number;
  readonly bySide: Readonly<Record<Faction, SideRecord>>;
  /** Times each role was played, most played first. */
  readonly roles: readonly { readonly role: RoleId; readonly times: number }[];
  readonly survived: number;
}

export interface ServerStats {
  readonly gamesFinished: number;
  readonly townWins: number;
  readonly mafiaWins: number;
  readonly draws: number;
  /** Mean of the day each finished game ended on; null without games. */
  readonly averageDays: number | null;
  /** AI personas by games played, most first. */
  readonly topPersonas: readonly { readonly name: string; readonly games: number }[];
}

export interface StatsStore {
  userStats(guildId: string, userId: string): Promise<UserStats>;
  serverStats(guildId: string, topPersonas?: number): Promise<ServerStats>;
}

/** Finished = ended with a winner or a draw; a game called off says nothing about anyone's play. */
const FINISHED = { status: 'ended', events: { some: { type: 'game_ended' } } } as const;
const ENDED_EVENT = { where: { type: 'game_ended' }, select: { payload: true }, take: 1 } as const;

function ended(events: readonly { payload: Prisma.JsonValue }[]): Ended | null {
  const parsed = EndedSchema.safeParse(events[0] ? fromPrismaJson(events[0].payload) : null);
  return parsed.success && parsed.data.outcome.kind !== 'cancelled' ? parsed.data : null;
}

function won(result: Ended, playerId: string, faction: Faction): boolean {
  if (faction === 'neutral') return result.jesterWinners.includes(playerId);
  return result.outcome.kind === 'win' && result.outcome.faction === faction;
}

export function createStatsStore(prisma: PrismaClient): StatsStore {
  return {
    async userStats(guildId, userId) {
      const rows = await prisma.gamePlayer.findMany({
        where: { userId, kind: 'human', game: { guildId, ...FINISHED } },
        select: { playerId: true, role: true, alive: true, game: { select: { events: ENDED_EVENT } } },
      });
      const bySide: Record<Faction, { played: number; won: number }> = {
        town: { played: 0, won: 0 },
        mafia: { played: 0, won: 0 },
        neutral: { played: 0, won: 0 },
      };
      const roles = new Map<RoleId, number>();
      let gamesPlayed = 0;
      let wins = 0;
      let survived = 0;
      for (const row of rows) {
        const result = ended(row.game.events);
        const role = RoleIdSchema.safeParse(row.role);
        if (!result || !role.success) continue;
        const faction = getRole(role.data).faction;
        const didWin = won(result, row.playerId, faction);
        gamesPlayed++;
        if (didWin) wins++;
        if (row.alive) survived++;
        bySide[faction].played++;
        if (didWin) bySide[faction].won++;
        roles.set(role.data, (roles.get(role.data) ?? 0) + 1);
      }
      return {
        gamesPlayed,
        wins,
        bySide,
        roles: [...roles].map(([role, times]) => ({ role, times })).sort((a, b) => b.times - a.times || a.role.localeCompare(b.role)),
        survived,
      };
    },

    async serverStats(guildId, topPersonas = 5) {
      const games = await prisma.game.findMany({
        where: { guildId, ...FINISHED },
        select: { day: true, events: ENDED_EVENT, players: { where: { kind: 'ai' }, select: { personaId: true, displayName: true } } },
      });
      let gamesFinished = 0;
      let townWins = 0;
      let mafiaWins = 0;
      let draws = 0;
      let days = 0;
      const personas = new Map<string, { name: string; games: number }>();
      for (const game of games) {
        const result = ended(game.events);
        if (!result) continue;
        gamesFinished++;
        days += game.day;
        if (result.outcome.kind === 'draw') draws++;
        else if (result.outcome.kind === 'win' && result.outcome.faction === 'town') townWins++;
        else if (result.outcome.kind === 'win') mafiaWins++;
        for (const p of game.players) {
          // House players have no persona: counted by name.
          const key = p.personaId ?? `name:${p.displayName}`;
          const seen = personas.get(key) ?? { name: p.displayName, games: 0 };
          personas.set(key, { name: seen.name, games: seen.games + 1 });
        }
      }
      return {
        gamesFinished,
        townWins,
        mafiaWins,
        draws,
        averageDays: gamesFinished > 0 ? days / gamesFinished : null,
        topPersonas: [...personas.values()].sort((a, b) => b.games - a.games || a.name.localeCompare(b.name)).slice(0, topPersonas),
      };
    },
  };
}
