import type { PrismaClient } from './generated/client.ts';

/** Who a rating is of: an AI persona, or a person (by Discord user id) who opted in. */
type RatedKind = 'persona' | 'human';

export interface SubjectKey {
  readonly kind: RatedKind;
  readonly subjectId: string;
}

export interface RatingRecord extends SubjectKey {
  readonly name: string;
  readonly mu: number;
  readonly sigma: number;
  readonly games: number;
  readonly wins: number;
}

/** A finished game waiting to be rated. */
export interface UnratedGame {
  readonly gameId: string;
  readonly guildId: string;
}

/** What a game's rating writes: each subject's new record, or nothing (a game that does not count). */
type RatingUpdate = (current: ReadonlyMap<string, RatingRecord>) => readonly RatingRecord[] | null;

export interface RatingStore {
  /** Ended games (of one server, or of all) not yet rated, in the order they ended. */
  unratedGames(guildId?: string): Promise<UnratedGame[]>;
  /**
   * Rates one game exactly once: marks it rated and writes what `update` makes of the current
   * records of `subjects`, in one transaction. False, with nothing written, when it was rated before.
   */
  rateOnce(game: UnratedGame, subjects: readonly SubjectKey[], update: RatingUpdate): Promise<boolean>;
  /** Every rating of a server (the caller ranks them). */
  ratings(guildId: string): Promise<RatingRecord[]>;
  /** The people of `userIds` who opted in to be rated in this server. */
  optedIn(guildId: string, userIds: readonly string[]): Promise<Set<string>>;
  /** Opting out also forgets the person's rating in that server. */
  setOptIn(guildId: string, userId: string, on: boolean): Promise<void>;
}

/** The map key of a subject: `persona:<id>` or `human:<id>`. */
export function subjectKey(s: SubjectKey): string {
  return `${s.kind}:${s.subjectId}`;
}

const asKind = (kind: string): RatedKind => (kind === 'human' ? 'human' : 'persona');

export function createRatingStore(prisma: PrismaClient): RatingStore {
  return {
    async unratedGames(guildId) {
      const rows = await prisma.game.findMany({
        where: { status: 'ended', rated: null, guildId: guildId ?? { not: null } },
        orderBy: [{ endedAt: 'asc' }, { id: 'asc' }],
        select: { id: true, guildId: true },
      });
      return rows.flatMap((r) => (r.guildId === null ? [] : [{ gameId: r.id, guildId: r.guildId }]));
    },

    rateOnce(game, subjects, update) {
      return prisma.$transaction(async (tx) => {
        // The marker first: a second rating of the game (another process, a retry) stops here.
        const marked = await tx.ratedGame.createMany({
          data: [{ gameId: game.gameId, guildId: game.guildId, counted: true }],
          skipDuplicates: true,
        });
        if (marked.count === 0) return false;
        const rows = await tx.rating.findMany({
          where: { guildId: game.guildId, OR: subjects.map((s) => ({ kind: s.kind, subjectId: s.subjectId })) },
        });
        const current = new Map(
          rows.map((r) => [subjectKey({ kind: asKind(r.kind), subjectId: r.subjectId }), { ...r, kind: asKind(r.kind) }]),
        );
        const records = update(current);
        if (records === null) {
          await tx.ratedGame.update({ where: { gameId: game.gameId }, data: { counted: false } });
          return true;
        }
        for (const r of records) {
          const data = { name: r.name, mu: r.mu, sigma: r.sigma, games: r.games, wins: r.wins };
          await tx.rating.upsert({
            where: { guildId_kind_subjectId: { guildId: game.guildId, kind: r.kind, subjectId: r.subjectId } },
            create: { guildId: game.guildId, kind: r.kind, subjectId: r.subjectId, ...data },
            update: data,
          });
        }
        return true;
      });
    },

    async ratings(guildId) {
      const rows = await prisma.rating.findMany({ where: { guildId } });
      return rows.map((r) => ({
        kind: asKind(r.kind),
        subjectId: r.subjectId,
        name: r.name,
        mu: r.mu,
        sigma: r.sigma,
        games: r.games,
        wins: r.wins,
      }));
    },

    async optedIn(guildId, userIds) {
      if (userIds.length === 0) return new Set();
      const rows = await prisma.ratingOptIn.findMany({ where: { guildId, userId: { in: [...userIds] } }, select: { userId: true } });
      return new Set(rows.map((r) => r.userId));
    },

    async setOptIn(guildId, userId, on) {
      if (on) {
        await prisma.ratingOptIn.createMany({ data: [{ guildId, userId }], skipDuplicates: true });
        return;
      }
      await prisma.$transaction([
        prisma.ratingOptIn.deleteMany({ where: { guildId, userId } }),
        prisma.rating.deleteMany({ where: { guildId, kind: 'human', subjectId: userId } }),
      ]);
    },
  };
}
