import { err, ok, type Result } from '../result.ts';
import type { GameProjection, StoredEvent } from './game-records.ts';
import { replacePlayers } from './game-player-rows.ts';
import type { PrismaClient } from './generated/client.ts';
import { fromPrismaJson, toPrismaJson } from './prisma-json.ts';

/** A game's append-only event log, with the projection rewritten in the same transaction. */
export interface GameEventLog {
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
}

export function gameEventLog(prisma: PrismaClient): GameEventLog {
  return {
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
