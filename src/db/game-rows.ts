import { err, ok, type Result } from '../result.ts';
import type { GameStatus, NewGameRecord, PlayerKind, PlayerProjection, StoredGame } from './game-records.ts';
import type { Game, GamePlayer, PrismaClient } from './generated/client.ts';
import { fromPrismaJson, toPrismaJson } from './prisma-json.ts';

/** The Game row of each game: creating one and finding it again with its players. */
export interface GameRows {
  createGame(record: NewGameRecord): Promise<Result<void, 'exists'>>;
  getGame(gameId: string): Promise<StoredGame | null>;
  /** The newest game in the channel that is in the lobby or running. */
  findOpenGameInChannel(channelId: string): Promise<StoredGame | null>;
  listRunningGameIds(): Promise<string[]>;
  /** Games still in the lobby, oldest first (their idle time runs on after a restart). */
  listLobbyGameIds(): Promise<string[]>;
  /** A new host (the old one left the server); false when there is no such game. */
  setHost(gameId: string, hostId: string): Promise<boolean>;
}

const OPEN_STATUSES: GameStatus[] = ['lobby', 'running'];
const INITIAL_PHASE = 'lobby';

export function gameRows(prisma: PrismaClient): GameRows {
  const idsWithStatus = async (status: GameStatus): Promise<string[]> => {
    const rows = await prisma.game.findMany({ where: { status }, select: { id: true }, orderBy: { createdAt: 'asc' } });
    return rows.map((row) => row.id);
  };
  return {
    async createGame(record) {
      // ON CONFLICT DO NOTHING: a duplicate id is an answer, not an exception.
      const { count } = await prisma.game.createMany({
        data: [
          {
            id: record.id,
            guildId: record.guildId,
            channelId: record.channelId,
            hostId: record.hostId,
            seed: record.seed,
            settings: toPrismaJson(record.settings),
            phase: INITIAL_PHASE,
            status: 'lobby',
            day: 0,
          },
        ],
        skipDuplicates: true,
      });
      return count === 1 ? ok(undefined) : err('exists');
    },

    async getGame(gameId) {
      const row = await prisma.game.findUnique({
        where: { id: gameId },
        include: { players: { orderBy: { seat: 'asc' } } },
      });
      return row === null ? null : toStoredGame(row);
    },

    async findOpenGameInChannel(channelId) {
      const row = await prisma.game.findFirst({
        where: { channelId, status: { in: OPEN_STATUSES } },
        orderBy: { createdAt: 'desc' },
        include: { players: { orderBy: { seat: 'asc' } } },
      });
      return row === null ? null : toStoredGame(row);
    },

    async setHost(gameId, hostId) {
      const { count } = await prisma.game.updateMany({ where: { id: gameId }, data: { hostId } });
      return count === 1;
    },

    listRunningGameIds: () => idsWithStatus('running'),
    listLobbyGameIds: () => idsWithStatus('lobby'),
  };
}

function toStoredGame(row: Game & { players: GamePlayer[] }): StoredGame {
  return {
    id: row.id,
    guildId: row.guildId,
    channelId: row.channelId,
    hostId: row.hostId,
    seed: row.seed,
    settings: fromPrismaJson(row.settings),
    phase: row.phase,
    status: asStatus(row.status),
    day: row.day,
    deadline: row.deadline === null ? null : row.deadline.getTime(),
    players: row.players.map(toPlayerProjection),
    lastSeq: row.lastSeq,
    createdAt: row.createdAt.getTime(),
    updatedAt: row.updatedAt.getTime(),
    endedAt: row.endedAt === null ? null : row.endedAt.getTime(),
  };
}

function toPlayerProjection(row: GamePlayer): PlayerProjection {
  return {
    playerId: row.playerId,
    seat: row.seat,
    displayName: row.displayName,
    kind: asKind(row.kind),
    userId: row.userId,
    personaId: row.personaId,
    role: row.role,
    alive: row.alive,
    lastWill: row.lastWill,
  };
}

// Only this store writes these columns, so an unknown value means corruption.
function asStatus(value: string): GameStatus {
  if (value === 'lobby' || value === 'running' || value === 'ended') return value;
  throw new Error(`Game.status holds unknown value ${JSON.stringify(value)}`);
}

function asKind(value: string): PlayerKind {
  if (value === 'human' || value === 'ai') return value;
  throw new Error(`GamePlayer.kind holds unknown value ${JSON.stringify(value)}`);
}
