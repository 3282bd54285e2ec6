import { randomInt } from 'node:crypto';
import type { Client } from 'discord.js';
import type { Timers } from '../clock.ts';
import type { LobbyConfig } from '../config.ts';
import { urgently } from '../db/db-priority.ts';
import { GameRepository } from '../db/game-repository.ts';
import type { LobbySeat } from '../db/persona-seats.ts';
import type { DiscordRefKind, GameStore } from '../db/game-store.ts';
import * as engine from '../game/index.ts';
import type { GameEvent, GameState } from '../game/index.ts';
import type { Logger } from '../log.ts';
import { err, ok, type Result } from '../result.ts';
import { driveAiSeats, seatAvatars, seatPersonas, type AiSeatDeps } from './ai-seats.ts';
import { GameOutput } from './game-output.ts';
import { LiveGame } from './live-game.ts';
import { MemberChecks } from './member-checks.ts';
import { lossReason, type ChannelLoss } from './output/sends.ts';
import { lobbyCapRefusal } from './lobby-cap.ts';
import { CHANNEL_TAKEN, draftLobby, type LobbyDraft, type LobbyRequest } from './lobby-draft.ts';
import { closeIdleLobby, LobbyExpiry } from './lobby-expiry.ts';
import type { WithdrawnWordsDeps } from './withdrawn-words.ts';

/** The phases at whose start people who left the server are taken out. */
const CHECKED_PHASES = new Set<engine.Phase>(['night', 'day']);

export interface LiveGamesDeps {
  readonly client: Client;
  readonly store: GameStore;
  readonly timers: Timers;
  readonly log: Logger;
  readonly ai: AiSeatDeps;
  /** How long an idle lobby lasts, and how many one person may host. */
  readonly lobbies: LobbyConfig;
  /** Seeds for new games; random unless a test pins them. */
  readonly newSeed?: () => number;
  /** Told once a game of this server has ended and is stored (the ratings take it in). */
  readonly gameEnded?: (guildId: string) => Promise<unknown>;
  /** Whether this process runs the games of a guild (sharding: the guild is on one of its shards); default all. */
  readonly ownsGuild?: (guildId: string | null) => boolean;
}

/**
 * The live games of this process, one per channel. A game not in memory (created by an earlier
 * process) is loaded from the database the first time its channel is asked about, so nothing
 * depends on the process that created it.
 */
export class LiveGames {
  private readonly byChannel = new Map<string, LiveGame>();
  private readonly loading = new Map<string, Promise<LiveGame | null>>();
  /** AI seatings started after a reply; idle and shutdown wait for them (else a driver could appear after stop). */
  private readonly seating = new Set<Promise<void>>();
  /** A start of a game's AI seats under way: one per game, gone with its live game. */
  private readonly aiStarting = new WeakMap<LiveGame, Promise<void>>();
  private readonly repo: GameRepository;
  /** Each open lobby's idle timer. */
  private readonly expiry: LobbyExpiry;
  /** Settles once resumeRunning has loaded every running game. */
  private resumed: Promise<void> = Promise.resolve();
  readonly output: GameOutput;
  /** Who is still in each server: people seen there, and Discord asked at nightfall and daybreak. */
  readonly members: MemberChecks;
  /** What the listeners of message edits and deletions need to withdraw what the games took of them. */
  readonly words: WithdrawnWordsDeps;

  constructor(private readonly deps: LiveGamesDeps) {
    this.repo = new GameRepository(deps.store);
    this.expiry = new LobbyExpiry(deps.timers, deps.lobbies.idleMinutes, (gameId) => this.background(this.expire(gameId)));
    this.output = new GameOutput(deps.client, deps.log, deps.timers, (channelId, loss) => void this.channelGone(channelId, loss));
    this.members = new MemberChecks({
      client: deps.client,
      store: deps.store,
      log: deps.log,
      output: this.output,
      startAi: (game) => this.startAi(game),
    });
    this.words = {
      liveGameHolding: (channelId, ref, inDm) => this.holding(channelId, ref, inDm),
      store: deps.store,
      log: deps.log,
      now: () => deps.timers.now(),
    };
  }

  /**
   * The live game that took message `ref` in this channel: the game's channel or its Mafia thread,
   * or in a DM a game whose Mafia chat goes by DM. Answered from memory (running games are all
   * held from start-up); the log is read only for a game channel's or Mafia DM's own messages.
   */
  private holding(channelId: string, ref: string, inDm: boolean): LiveGame | undefined {
    const takes = (t: LiveGame) => engine.speechOf(t.state.log, ref) !== undefined;
    if (inDm) return this.live.find((t) => this.output.mafiaChatsByDm(t.state.id) && takes(t));
    const game = this.byChannel.get(channelId) ?? this.live.find((t) => t.mafiaThreadId === channelId);
    return game && takes(game) ? game : undefined;
  }

  /** A game whose channel is gone is cancelled and stored as such, with why; its players are told by DM (the output does that). */
  private async channelGone(channelId: string, loss: ChannelLoss): Promise<void> {
    const game = this.byChannel.get(channelId) ?? (await this.inChannel(channelId));
    if (!game || game.state.phase === 'ended') return;
    game.driver?.stop();
    const reason = lossReason(loss);
    const cancelled = await game.submit((s, at) => engine.cancel(s, { by: null, reason, at }));
    if (!cancelled.ok) this.deps.log.warn(`game ${game.state.id} could not be cancelled (${reason}): ${cancelled.error.message}`);
  }

  /** A lobby idle too long is closed, as a host's end would; the channel hears why (the output tells the end). */
  private async expire(gameId: string): Promise<void> {
    const game = this.liveGame(gameId);
    if (!game || game.state.phase !== 'lobby') return;
    const closed = await game.submit((s, at) => closeIdleLobby(s, at, this.deps.lobbies.idleMinutes));
    if (!closed.ok && closed.error.code !== 'not_due' && closed.error.code !== 'game_started') {
      this.deps.log.warn(`idle lobby ${gameId} could not be closed: ${closed.error.message}`);
    }
  }

  /** The open (lobby or running) game in this channel, or null. */
  async inChannel(channelId: string): Promise<LiveGame | null> {
    const live = this.byChannel.get(channelId);
    if (live) return live;
    let pending = this.loading.get(channelId);
    if (!pending) {
      pending = this.loadFromStore(channelId).finally(() => this.loading.delete(channelId));
      this.loading.set(channelId, pending);
    }
    return pending;
  }

  /** The open game of this channel if this process holds it: answered from memory, never waiting. */
  liveInChannel(channelId: string): LiveGame | undefined {
    return this.byChannel.get(channelId);
  }

  /** The open game with this id if this process holds it: answered from memory, never waiting. */
  liveGame(gameId: string): LiveGame | undefined {
    return this.live.find((t) => t.state.id === gameId);
  }

  /** The open game with this id (custom ids of DM menus and vote messages name the game, not the channel). */
  async byGame(gameId: string): Promise<LiveGame | null> {
    const live = this.liveGame(gameId);
    if (live) return live;
    const record = await this.deps.store.getGame(gameId);
    if (!record?.channelId) return null;
    const game = await this.inChannel(record.channelId);
    return game?.state.id === gameId ? game : null;
  }

  /**
   * Frees an AI seat in a lobby because its persona is being deleted, and says so in the lobby, so
   * no seat plays a persona that no longer exists. Refused once the game has started (the persona
   * then plays it out), and for another process's lobby (only its own process may write to it).
   */
  async freePersonaSeat(seat: LobbySeat): Promise<Result<void, string>> {
    const where = `the lobby in <#${seat.channelId}>`;
    if (this.deps.ownsGuild && !this.deps.ownsGuild(seat.guildId))
      return err(`its seat in ${where} must be removed there first (\`/mafia remove\`).`);
    const game = await this.inChannel(seat.channelId);
    const player = game?.state.id === seat.gameId ? game.state.players.find((p) => p.id === seat.playerId) : undefined;
    if (!game || !player) return ok(undefined); // That seat or lobby is gone already.
    const freed = await game.submit((s, at) => {
      const left = engine.leave(s, { playerId: player.id, at });
      if (!left.ok) return left;
      const told = engine.announce(left.value.state, { text: `${player.name} left the lobby: its owner deleted the persona.`, at });
      return told.ok ? ok({ state: told.value.state, events: [...left.value.events, ...told.value.events] }) : told;
    });
    if (freed.ok) return ok(undefined);
    return err(
      freed.error.code === 'game_started'
        ? `the game in <#${seat.channelId}> has started with it seated; delete it once the game ends.`
        : `its seat in ${where} could not be freed (${freed.error.message}).`,
    );
  }

  /** The game whose channel or Mafia thread this is. */
  async forChannel(channelId: string, parentId: string | null): Promise<LiveGame | null> {
    if (parentId) {
      const game = this.byChannel.get(parentId) ?? (await this.inChannel(parentId));
      return game?.mafiaThreadId === channelId ? game : null;
    }
    return this.inChannel(channelId);
  }

  get live(): readonly LiveGame[] {
    return [...this.byChannel.values()];
  }

  /** The game whose Mafia chat goes by DM and in which this person is a living Mafia: their DMs to the bot are that chat. */
  mafiaChatByDmOf(userId: string): LiveGame | null {
    return (
      this.live.find((t) => {
        const me = t.state.players.find((p) => p.kind === 'human' && p.userId === userId);
        return (
          me !== undefined && me.alive && engine.isMafia(me.role) && t.state.phase !== 'ended' && this.output.mafiaChatsByDm(t.state.id)
        );
      }) ?? null
    );
  }

  /**
   * What can be refused without the database: bad settings, a game of this process already in the
   * channel, a host at their cap. Lets a command refuse privately before it acknowledges, and store after.
   */
  draft(request: LobbyRequest): Result<LobbyDraft, string> {
    if (this.byChannel.has(request.channelId)) return err(CHANNEL_TAKEN);
    const capped = lobbyCapRefusal(this.live, request.host.id, this.deps.lobbies.perHost);
    if (capped) return err(capped);
    return draftLobby(request, this.deps.timers.now(), this.deps.newSeed?.() ?? randomInt(2 ** 31 - 1));
  }

  /** Opens a drafted lobby; refused when the channel already has an open game (perhaps only in the database). */
  async create(draft: LobbyDraft): Promise<Result<LiveGame, string>> {
    // The host waits on this read: on embedded PGlite it goes before background writes (p50 235 → 50 ms in a burst of lobbies).
    if (await urgently(() => this.inChannel(draft.channelId))) return err(CHANNEL_TAKEN);
    // Claim the channel before the next await, so two creates at once cannot both succeed.
    if (this.byChannel.has(draft.channelId)) return err('This channel already has a game open.');
    // Again after the wait: two creates at once in two channels must not pass the cap together.
    const capped = lobbyCapRefusal(this.live, draft.hostId, this.deps.lobbies.perHost);
    if (capped) return err(capped);
    const game = this.game(draft.state, draft);
    this.byChannel.set(draft.channelId, game);
    const stored = await this.repo.create(draft.state, { guildId: draft.guildId, channelId: draft.channelId, hostId: draft.hostId });
    if (!stored.ok) {
      this.byChannel.delete(draft.channelId);
      return err('The game could not be stored; nothing was created. Please try again.');
    }
    game.session.open();
    this.expiry.arm(game.state);
    return ok(game);
  }

  /** Seats the AI in the background (after the interaction's reply); failures go to the log. */
  seatAiLater(game: LiveGame): void {
    this.background(this.startAi(game));
  }

  /** Work after a reply or an event that idle and shutdown wait for; failures go to the log. */
  background(work: Promise<void>): void {
    const tracked: Promise<void> = work
      .catch((error: unknown) => this.deps.log.error(`background work: ${String(error)}`))
      .finally(() => this.seating.delete(tracked));
    this.seating.add(tracked);
  }

  /** How many entries each table of the live games and their output holds: what a long run watches stay flat. */
  held(): Record<string, number> {
    return {
      liveGames: this.byChannel.size,
      loading: this.loading.size,
      background: this.seating.size,
      seenMembers: this.members.size,
      lobbyTimers: this.expiry.size,
      ...this.output.held(),
    };
  }

  /** Resolves once changes are stored and published, and background seatings, membership checks and output have finished (AI work in flight has its own driver's idle). */
  async idle(): Promise<void> {
    // Each round may start more: a stored change is published, its output queued, a check begun.
    do {
      await Promise.all(this.live.map((t) => t.session.settled()));
      while (this.seating.size > 0) await Promise.allSettled([...this.seating]);
      await this.output.idle();
    } while (this.seating.size > 0 || this.live.some((t) => t.session.writing));
  }

  /**
   * Gives a started game's AI seats their brains and starts the work the current phase owes; resolves
   * once the moves already due are in (after a restart late in a phase: see AiDriver.resume). Asked
   * again while it is under way (two presses of Start), it waits for that start: one driver per game.
   */
  startAi(game: LiveGame): Promise<void> {
    if (game.driver || game.state.phase === 'lobby') return Promise.resolve();
    const under = this.aiStarting.get(game);
    if (under) return under;
    const starting = this.seatAi(game).finally(() => this.aiStarting.delete(game));
    this.aiStarting.set(game, starting);
    return starting;
  }

  private async seatAi(game: LiveGame): Promise<void> {
    const personas = await seatPersonas(this.deps.ai, game, game.state.players);
    game.avatars = seatAvatars(personas);
    game.driver = await driveAiSeats(this.deps.ai, game.session, game, personas, (playerId, busy) =>
      this.output.thinking(game, playerId, busy),
    );
    await game.driver.resume();
  }

  /** Settles once the running games of an earlier process are back (start-up); what finds games only in memory waits for it. */
  loaded(): Promise<void> {
    return this.resumed;
  }

  /**
   * Boot: every running game of this process's guilds comes back at its phase, with its deadlines
   * and minds; and every lobby, so its idle time runs on and its host's lobbies are counted.
   */
  resumeRunning(): Promise<number> {
    const resuming = this.loadRunning();
    this.resumed = resuming.then(
      () => undefined,
      () => undefined,
    );
    return resuming;
  }

  private async loadRunning(): Promise<number> {
    let resumed = 0;
    const running = await this.deps.store.listRunningGameIds();
    for (const id of [...running, ...(await this.deps.store.listLobbyGameIds())]) {
      const record = await this.deps.store.getGame(id);
      if (!record?.channelId || this.byChannel.has(record.channelId)) continue;
      // Another shard's process runs it (and Discord sends that guild's events there).
      if (this.deps.ownsGuild && !this.deps.ownsGuild(record.guildId)) continue;
      if ((await this.inChannel(record.channelId)) && running.includes(id)) resumed++;
    }
    return resumed;
  }

  /** Stops timers and AI work; games stay stored for the next process. */
  async closeAll(): Promise<void> {
    this.expiry.disarmAll();
    await Promise.allSettled([...this.seating]);
    for (const game of this.byChannel.values()) {
      game.session.close();
      // Models still thinking are abandoned: the next process asks again from the stored log.
      game.driver?.stop();
    }
    await Promise.allSettled(this.live.flatMap((t) => (t.driver ? [t.driver.idle()] : [])));
    // Changes already answered for are stored before the process goes.
    await Promise.all(this.live.map((t) => t.session.settled()));
    await this.output.idle();
    await Promise.allSettled(this.live.map((t) => t.refsSaved()));
    this.byChannel.clear();
  }

  private game(state: GameState, place: { channelId: string; guildId: string; hostId: string }): LiveGame {
    return new LiveGame(state, place.channelId, place.guildId, place.hostId, {
      repo: this.repo,
      timers: this.deps.timers,
      publish: (game, events, after) => this.published(game, events, after),
      remember: (gameId, kind, discordId) => this.remember(gameId, kind, discordId),
      remind: (game, current, msLeft) => this.output.remind(game, current, msLeft),
    });
  }

  private async remember(gameId: string, kind: DiscordRefKind, discordId: string | null): Promise<void> {
    try {
      const saved = await this.deps.store.setDiscordRef(gameId, kind, discordId);
      if (!saved.ok) this.deps.log.warn(`${kind} of game ${gameId} not stored: ${saved.error}`);
    } catch (error) {
      // Only a restart needs it; the game goes on, and the Mafia thread can still be found by name.
      this.deps.log.warn(`${kind} of game ${gameId} not stored: ${String(error)}`);
    }
  }

  private published(game: LiveGame, events: readonly GameEvent[], state: GameState): void {
    game.driver?.onEvents(events);
    this.output.published(game, events, state);
    // Any change to a lobby is activity: its idle time starts again (a start or an end forgets it).
    this.expiry.arm(state);
    // Moments to ask who left the server: people joining or leaving the lobby, nightfall and daybreak
    // (not AI seats joining, nor the short phases between).
    const changed = events.some(
      (e) =>
        (e.type === 'phase_started' && CHECKED_PHASES.has(e.payload.phase)) ||
        e.type === 'player_left' ||
        (e.type === 'player_joined' && e.payload.player.kind === 'human'),
    );
    if (changed && state.phase !== 'ended') {
      this.background(this.members.check(game));
    }
    if (state.phase === 'ended') {
      const ended = this.deps.gameEnded;
      if (ended) this.background(ended(game.guildId).then(() => undefined));
      game.session.close();
      if (this.byChannel.get(game.channelId) === game) this.byChannel.delete(game.channelId);
    }
  }

  private async loadFromStore(channelId: string): Promise<LiveGame | null> {
    const record = await this.deps.store.findOpenGameInChannel(channelId);
    if (!record) return null;
    const loaded = await this.repo.load(record.id);
    if (!loaded.ok) {
      this.deps.log.error(`game ${record.id} in channel ${channelId} cannot be loaded: ${JSON.stringify(loaded.error)}`);
      return null;
    }
    const refs = await this.deps.store.loadDiscordRefs(record.id);
    const existing = this.byChannel.get(channelId);
    if (existing) return existing;
    const game = this.game(loaded.value, { channelId, guildId: record.guildId ?? '', hostId: record.hostId ?? '' });
    game.restoreRefs(refs);
    await this.output.recover(game);
    // The AI seats' moves already due go in before the phase can resolve: the deadline runs only
    // after them (open), and an interaction about this game waits for it here (inChannel), acknowledged.
    await this.startAi(game);
    if (game.state.phase === 'ended') return null;
    this.byChannel.set(channelId, game);
    game.session.open();
    this.expiry.arm(game.state);
    return game;
  }
}
