import { DiscordAPIError, type Client } from 'discord.js';
import type { GameStore } from '../db/game-store.ts';
import * as engine from '../game/index.ts';
import type { Logger } from '../log.ts';
import type { GameOutput } from './game-output.ts';
import type { LiveGame } from './live-game.ts';

/** Discord's "Unknown Member": they are no longer in the server. */
const UNKNOWN_MEMBER = 10007;
/** People last seen kept at most (the table starts over past it: at worst Discord is asked once more). */
const MAX_SEEN = 100_000;

export interface MemberChecksDeps {
  readonly client: Client;
  readonly store: Pick<GameStore, 'setHost'>;
  readonly log: Logger;
  readonly output: Pick<GameOutput, 'hostChanged'>;
  /** Gives a game's AI seats their brains again (a seat an AI took over joins them). */
  readonly startAi: (game: LiveGame) => Promise<void>;
}

/**
 * At nightfall and daybreak (and as people join or leave a lobby), people who left the server are
 * taken out of the game ("left the game", role shown), and a host who left hands the game on.
 * Asked of Discord by REST, one member at a time (no privileged members intent needed), and only
 * of those not seen in the server since the game's last check: someone who played or spoke there
 * since (a night pick by DM included) is still a member (one who leaves right after is out a phase later).
 */
export class MemberChecks {
  /** When each person was last seen in each server (an interaction or a message there), as a running count. */
  private readonly seen = new Map<string, number>();
  private seenCount = 0;
  /** The count at each game's last membership check: someone seen since is still in the server. */
  private readonly checkedUpTo = new WeakMap<LiveGame, number>();
  /** The newest membership check of each game; the next waits for it. */
  private readonly checks = new WeakMap<LiveGame, Promise<void>>();

  constructor(private readonly deps: MemberChecksDeps) {}

  /** This person acted or spoke in this server just now. */
  saw(guildId: string, userId: string): void {
    if (this.seen.size >= MAX_SEEN) this.seen.clear();
    this.seen.set(`${guildId}:${userId}`, ++this.seenCount);
  }

  /** People seen, as kept. */
  get size(): number {
    return this.seen.size;
  }

  /** A check of the game's people, after the one under way (two at once could both hand the host role on). */
  check(game: LiveGame): Promise<void> {
    const next = (this.checks.get(game) ?? Promise.resolve()).catch(() => undefined).then(() => this.departures(game));
    this.checks.set(game, next);
    return next;
  }

  private async departures(game: LiveGame): Promise<void> {
    const guild = this.deps.client.guilds.cache.get(game.guildId);
    if (!guild) return;
    const since = this.checkedUpTo.get(game) ?? 0;
    this.checkedUpTo.set(game, this.seenCount);
    // Asked once per person per check: the host is usually seated too.
    const asked = new Map<string, Promise<boolean>>();
    const here = (userId: string): Promise<boolean> => {
      if ((this.seen.get(`${game.guildId}:${userId}`) ?? 0) > since) return Promise.resolve(true);
      const known = asked.get(userId);
      if (known) return known;
      const answer = guild.members.fetch({ user: userId, force: true }).then(
        () => true,
        // Only Discord's "Unknown Member" says they left; any other failure is no reason to act.
        (error: unknown) => !(error instanceof DiscordAPIError) || error.code !== UNKNOWN_MEMBER,
      );
      asked.set(userId, answer);
      return answer;
    };
    let handedOver = false;
    for (const p of game.state.players) {
      const userId = p.userId;
      if (p.kind !== 'human' || !p.alive || !userId || (await here(userId))) continue;
      const lobby = game.state.phase === 'lobby';
      const left = await game.submit((s, at) =>
        lobby ? engine.leave(s, { playerId: p.id, at }) : engine.depart(s, { playerId: p.id, at }),
      );
      if (!left.ok) this.deps.log.warn(`${p.name} left ${game.state.id} but stays seated: ${left.error.message}`);
      else handedOver ||= left.value.events.some((e) => e.type === 'seat_taken_over');
    }
    // A seat an AI took over joins the AI seats: the driver is built again over the new seating, as after a restart.
    if (handedOver && game.driver) {
      game.driver.stop();
      game.driver = null;
      await this.deps.startAi(game);
    }
    if (await here(game.hostId)) return;
    // The host left: the longest-seated person still here takes over, so the game can be started and ended.
    for (const p of game.state.players) {
      const userId = p.userId;
      if (p.kind !== 'human' || !userId || userId === game.hostId || !(await here(userId))) continue;
      game.hostId = userId;
      if (!(await this.deps.store.setHost(game.state.id, userId))) this.deps.log.warn(`new host of ${game.state.id} not stored`);
      this.deps.output.hostChanged(game, p.name);
      return;
    }
  }
}
