import { err, ok, type Result } from '../result.ts';
import { DISCORD_REF_KINDS } from './game-records.ts';
import type {
  DiscordRefKind,
  DiscordRefs,
  GameProjection,
  GameStatus,
  Mind,
  NewGameRecord,
  PlayerKind,
  PlayerProjection,
  StoredEvent,
  StoredGame,
} from './game-records.ts';
import type { Game, GamePlayer, Prisma, PrismaClient } from './generated/client.ts';
import { fromPrismaJson, toPrismaJson } from './prisma-json.ts';

export type * from './game-records.ts';
export { DISCORD_REF_KINDS } from './game-records.ts';

/**
 * Games as an append-only event log plus a projection (Game and GamePlayer rows)
 * rewritten in the same transaction. Expected outcomes come back as values;
 * a broken connection still rejects.
 */
export interface GameStore {
  createGame(record: NewGameRecord): Promise<Result<void, 'exists'>>;
  /**
   * Appends events whose seqs continue exactly from `expectedLastSeq` (0 when the
   * game has none) and replaces the projection, atomically. Players missing from
   * the projection are deleted; AI minds of the others are left alone.
   * A writer whose `expectedLastSeq` is stale gets 'conflict' and writes nothing.
   * `previous`, the projection stored with `expectedLastSeq`, lets only the players that
   * changed since be rewritten (most commands change none).
   */
  append(
    gameId: string,
    expectedLastSeq: number,
    events: readonly StoredEvent[],
    projection: GameProjection,
    previous?: GameProjection,
  ): Promise<Result<void, 'conflict' | 'not_found'>>;
  /** Ordered by seq. */
  loadEvents(gameId: string): Promise<StoredEvent[]>;
  getGame(gameId: string): Promise<StoredGame | null>;
  /** The newest game in the channel that is in the lobby or running. */
  findOpenGameInChannel(channelId: string): Promise<StoredGame | null>;
  listRunningGameIds(): Promise<string[]>;
  saveMind(gameId: string, playerId: string, mind: Mind): Promise<Result<void, 'not_found'>>;
  /** Keyed by playerId. */
  loadMinds(gameId: string): Promise<Record<string, Mind>>;
  /** Remembers the Discord id of a message or thread the game keeps using; null forgets it. */
  setDiscordRef(gameId: string, kind: DiscordRefKind, discordId: string | null): Promise<Result<void, 'not_found'>>;
  loadDiscordRefs(gameId: string): Promise<DiscordRefs>;
}

const OPEN_STATUSES: GameStatus[] = ['lobby', 'running'];
const INITIAL_PHASE = 'lobby';

export function createGameStore(prisma: PrismaClient): GameStore {
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

    async append(gameId, expectedLastSeq, events, projection, previous) {
      assertContiguous(expectedLastSeq, events);
      const newLastSeq = expectedLastSeq + events.length;
      return prisma.$transaction(async (tx) => {
        // Compare-and-set on lastSeq. The UPDATE also row-locks the game, so a
        // concurrent writer waits here and then finds lastSeq already moved.
        const claimed = await tx.game.updateMany({
          where: { id: gameId, lastSeq: expectedLastSeq },
          data: {
            lastSeq: newLastSeq,
            phase: projection.phase,
            status: projection.status,
            day: projection.day,
            deadline: projection.deadline === null ? null : new Date(projection.deadline),
          },
        });
        if (claimed.count === 0) {
          const exists = await tx.game.findUnique({ where: { id: gameId }, select: { id: true } });
          return err(exists === null ? 'not_found' : 'conflict');
        }
        if (projection.status === 'ended') {
          await tx.game.updateMany({ where: { id: gameId, endedAt: null }, data: { endedAt: new Date() } });
        }
        if (events.length > 0) {
          await tx.gameEvent.createMany({
            data: events.map((event) => ({
              gameId,
              seq: event.seq,
              type: event.type,
              at: new Date(event.at),
              visibility: toPrismaJson(event.visibility),
              payload: toPrismaJson(event.payload),
            })),
          });
        }
        await replacePlayers(tx, gameId, projection.players, previous?.players);
        return ok(undefined);
      });
    },

    async loadEvents(gameId) {
      const rows = await prisma.gameEvent.findMany({ where: { gameId }, orderBy: { seq: 'asc' } });
      return rows.map((row) => ({
        seq: row.seq,
        type: row.type,
        at: row.at.getTime(),
        visibility: fromPrismaJson(row.visibility),
        payload: fromPrismaJson(row.payload),
      }));
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

    async listRunningGameIds() {
      const rows = await prisma.game.findMany({
        where: { status: 'running' },
        select: { id: true },
        orderBy: { createdAt: 'asc' },
      });
      return rows.map((row) => row.id);
    },

    async saveMind(gameId, playerId, mind) {
      const { count } = await prisma.gamePlayer.updateMany({
        where: { gameId, playerId },
        data: { memory: toPrismaJson(mind.memory), beliefs: toPrismaJson(mind.beliefs) },
      });
      return count === 1 ? ok(undefined) : err('not_found');
    },

    async loadMinds(gameId) {
      const rows = await prisma.gamePlayer.findMany({
        where: { gameId },
        select: { playerId: true, memory: true, beliefs: true },
      });
      const minds: Record<string, Mind> = {};
      for (const row of rows) {
        minds[row.playerId] = { memory: fromPrismaJson(row.memory), beliefs: fromPrismaJson(row.beliefs) };
      }
      return minds;
    },

    async setDiscordRef(gameId, kind, discordId) {
      if (discordId === null) {
        await prisma.gameDiscordRef.deleteMany({ where: { gameId, kind } });
        return ok(undefined);
      }
      const game = await prisma.game.findUnique({ where: { id: gameId }, select: { id: true } });
      if (game === null) return err('not_found');
      await prisma.gameDiscordRef.upsert({
        where: { gameId_kind: { gameId, kind } },
        create: { gameId, kind, discordId },
        update: { discordId },
      });
      return ok(undefined);
    },

    async loadDiscordRefs(gameId) {
      const rows = await prisma.gameDiscordRef.findMany({ where: { gameId } });
      const refs: DiscordRefs = {};
      // Kinds this version does not know (written by a newer one) are left out, not guessed at.
      for (const row of rows) {
        const kind = DISCORD_REF_KINDS.find((k) => k === row.kind);
        if (kind) refs[kind] = row.discordId;
      }
      return refs;
    },
  };
}

/** Gaps or repeats in seqs are a caller bug, not a race, so they throw. */
function assertContiguous(expectedLastSeq: number, events: readonly StoredEvent[]): void {
  if (!Number.isInteger(expectedLastSeq) || expectedLastSeq < 0) {
    throw new RangeError(`expectedLastSeq must be a non-negative integer, got ${expectedLastSeq}`);
  }
  events.forEach((event, index) => {
    const wanted = expectedLastSeq + 1 + index;
    if (event.seq !== wanted) {
      throw new RangeError(`event #${index} (${event.type}) has seq ${event.seq}, expected ${wanted}`);
    }
  });
}

function samePlayer(a: PlayerProjection, b: PlayerProjection | undefined): boolean {
  return b !== undefined && (Object.keys(a) as (keyof PlayerProjection)[]).every((key) => a[key] === b[key]);
}

/**
 * Brings the GamePlayer rows to `players`. With the `previous` rows known (the compare-and-set on
 * lastSeq guarantees they are what is stored), only the differences are written: every statement
 * holds the game's row lock, and with an embedded database every other game's too.
 */
async function replacePlayers(
  tx: Prisma.TransactionClient,
  gameId: string,
  players: readonly PlayerProjection[],
  previous?: readonly PlayerProjection[],
): Promise<void> {
  const ids = new Set(players.map((player) => player.playerId));
  if (previous === undefined || previous.some((player) => !ids.has(player.playerId))) {
    await tx.gamePlayer.deleteMany({ where: { gameId, playerId: { notIn: [...ids] } } });
  }
  const before = new Map((previous ?? []).map((player) => [player.playerId, player]));
  for (const player of players) {
    if (previous !== undefined && samePlayer(player, before.get(player.playerId))) continue;
    const fields = {
      seat: player.seat,
      displayName: player.displayName,
      kind: player.kind,
      userId: player.userId,
      personaId: player.personaId,
      role: player.role,
      alive: player.alive,
      lastWill: player.lastWill,
    };
    await tx.gamePlayer.upsert({
      where: { gameId_playerId: { gameId, playerId: player.playerId } },
      create: { gameId, playerId: player.playerId, ...fields },
      update: fields,
    });
  }
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
