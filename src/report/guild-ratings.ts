import type { GameState, PlayerState } from '../game/index.ts';
import type { Logger } from '../log.ts';
import { subjectKey, type RatingRecord, type RatingStore, type SubjectKey, type UnratedGame } from '../db/rating-store.ts';
import type { RatedPlacing } from './ratings.ts';

/**
 * The rating maths, loaded by the first game rated or board read rather than with the bot: openskill
 * brings ramda's hundreds of modules, over a second of a process's start-up.
 */
const ratingMaths = () => import('./ratings.ts');

export interface GuildRatingsDeps {
  readonly store: RatingStore;
  /** A stored game by id, folded from its log; null when it cannot be read. */
  readonly load: (gameId: string) => Promise<GameState | null>;
  readonly log: Logger;
}

/** A rating as a leaderboard shows it. */
export interface RankedRating extends RatingRecord {
  /** mu − 3 sigma: what the board ranks by. */
  readonly skill: number;
  /** 1-based place on its server's board. */
  readonly rank: number;
}

/** Who a seat is rated as: its persona, or a person who opted in; anyone else plays unrated. */
function subjectOf(p: PlayerState, optedIn: ReadonlySet<string>): SubjectKey | null {
  if (p.kind === 'ai') return p.personaId ? { kind: 'persona', subjectId: p.personaId } : null;
  return p.userId && optedIn.has(p.userId) ? { kind: 'human', subjectId: p.userId } : null;
}

/**
 * The servers' ratings of personas and of people who opted in, from their finished games. Every
 * game is rated once (the store marks it in the same transaction), in the order games ended, one
 * game at a time in this process; a game called off is marked and changes nothing.
 */
export class GuildRatings {
  private chain: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: GuildRatingsDeps) {}

  /**
   * Rates every finished game not rated yet, of one server or of all (at start-up); resolves with how
   * many counted. A failure is logged and leaves the games unrated for the next try.
   */
  catchUp(guildId?: string): Promise<number> {
    return this.queue(() => this.rateUnrated(guildId), 0);
  }

  /** One thing at a time, in order: ratings read and write the same rows. */
  private queue<T>(work: () => Promise<T>, onError: T): Promise<T> {
    const run = this.chain.then(work).catch((error: unknown) => {
      this.deps.log.error(`ratings: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return onError;
    });
    this.chain = run;
    return run;
  }

  /** Resolves once the ratings asked for so far are written. */
  async idle(): Promise<void> {
    await this.chain;
  }

  /** A server's board, best first. */
  async board(guildId: string): Promise<RankedRating[]> {
    const [rows, { skill }] = await Promise.all([this.deps.store.ratings(guildId), ratingMaths()]);
    return rows
      .map((r) => ({ ...r, skill: skill(r) }))
      .sort((a, b) => b.skill - a.skill || b.games - a.games || a.name.localeCompare(b.name))
      .map((r, i) => ({ ...r, rank: i + 1 }));
  }

  /** Whether this person chose to be rated in this server. */
  async isOptedIn(guildId: string, userId: string): Promise<boolean> {
    return (await this.deps.store.optedIn(guildId, [userId])).has(userId);
  }

  /** Opting in counts the person's games from the next one on; opting out forgets their rating here. */
  async setOptIn(guildId: string, userId: string, on: boolean): Promise<void> {
    // In the ratings' queue: a game rated just after an opt-out must not write the rating back.
    const run = this.chain.then(() => this.deps.store.setOptIn(guildId, userId, on));
    this.chain = run.catch(() => undefined);
    await run;
  }

  private async rateUnrated(guildId?: string): Promise<number> {
    let counted = 0;
    for (const game of await this.deps.store.unratedGames(guildId)) if (await this.rate(game)) counted++;
    return counted;
  }

  private async rate(game: UnratedGame): Promise<boolean> {
    const [state, { placings, rateGame }] = await Promise.all([this.deps.load(game.gameId), ratingMaths()]);
    if (!state) this.deps.log.warn(`ratings: game ${game.gameId} cannot be read; it is left out of the ratings`);
    const placed = state ? placings(state) : null;
    if (!state || !placed) {
      await this.deps.store.rateOnce(game, [], () => null);
      return false;
    }
    const humans = state.players.flatMap((p) => (p.kind === 'human' && p.userId ? [p.userId] : []));
    const optedIn = await this.deps.store.optedIn(game.guildId, humans);
    const subjects = new Map<string, SubjectKey & { name: string; won: boolean }>();
    const seats: RatedPlacing[] = placed.map((pl) => {
      const player = state.players.find((p) => p.id === pl.playerId);
      const key = player ? subjectOf(player, optedIn) : null;
      if (!player || !key) return { ...pl, subject: null };
      const subject = subjectKey(key);
      const seen = subjects.get(subject);
      subjects.set(subject, { ...key, name: seen?.name ?? player.name, won: (seen?.won ?? false) || pl.place === 1 });
      return { ...pl, subject };
    });
    return this.deps.store.rateOnce(game, [...subjects.values()], (current) =>
      [...rateGame((subject) => current.get(subject), seats)].flatMap(([subject, rating]) => {
        const who = subjects.get(subject);
        if (!who) return [];
        const before = current.get(subject);
        return [
          {
            kind: who.kind,
            subjectId: who.subjectId,
            name: who.name,
            mu: rating.mu,
            sigma: rating.sigma,
            games: (before?.games ?? 0) + 1,
            wins: (before?.wins ?? 0) + (who.won ? 1 : 0),
          },
        ];
      }),
    );
  }
}
