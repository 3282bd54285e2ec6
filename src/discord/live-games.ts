import { randomInt, randomUUID } from 'node:crypto';
import {
  DiscordAPIError,
  Events,
  type AnyThreadChannel,
  type Client,
  type DMChannel,
  type Guild,
  type GuildChannel,
  type Interaction,
  type Message,
} from 'discord.js';
import type { AiDriver } from '../agents/driver/ai-driver.ts';
import { GameSession, type Applied, type GameCommand, type SessionError } from '../session/game-session.ts';
import type { Timers } from '../clock.ts';
import type { LobbyConfig } from '../config.ts';
import { GameRepository } from '../db/game-repository.ts';
import type { LobbySeat } from '../db/persona-seats.ts';
import { DISCORD_REF_KINDS, type DiscordRefKind, type DiscordRefs, type GameStore } from '../db/game-store.ts';
import * as engine from '../game/index.ts';
import type { Change, GameError, GameEvent, GameState, SettingsInput } from '../game/index.ts';
import type { Logger } from '../log.ts';
import { err, ok, type Result } from '../result.ts';
import { driveAiSeats, seatAvatars, type AiSeatDeps } from './ai-seats.ts';
import { REMINDER_OFFSETS_MS } from './presenters/reminder.ts';
import { NIGHT_SELECT } from './presenters/night-action.ts';
import { customIdArgs } from './router.ts';
import { GameOutput } from './game-output.ts';
import { lossReason, type ChannelLoss } from './output/sends.ts';
import { lobbyCapRefusal } from './lobby-cap.ts';
import { closeIdleLobby, LobbyExpiry } from './lobby-expiry.ts';
import { onMessageDelete } from './listeners/message-delete.ts';
import { onMessageDeleteBulk } from './listeners/message-delete-bulk.ts';
import { onMessageUpdate } from './listeners/message-update.ts';
import type { WithdrawnWordsDeps } from './withdrawn-words.ts';

/** Discord's "Unknown Member": they are no longer in the server. */
const UNKNOWN_MEMBER = 10007;
/** The phases at whose start people who left the server are taken out. */
const CHECKED_PHASES = new Set<engine.Phase>(['night', 'day']);
/** People last seen kept at most (the table starts over past it: at worst Discord is asked once more). */
const MAX_SEEN = 100_000;

/** One live game in one channel: its session (the single writer), AI driver once started, and lobby message. */
export class LiveGame {
  readonly session: GameSession;
  driver: AiDriver | null = null;
  private readonly refs: Record<DiscordRefKind, string | null> = { lobby: null, vote: null, nominations: null, mafia_thread: null };
  /** Writes of refs in the order they were made (a vote message forgotten must not be remembered again by a late write). */
  private refWrites: Promise<void> = Promise.resolve();
  /** AI seats' persona avatars (player id → URL), looked up when the game starts. */
  avatars: ReadonlyMap<string, string> = new Map();

  constructor(
    state: GameState,
    readonly channelId: string,
    readonly guildId: string,
    /** Who may start, configure and end the game; passed on when they leave the server. */
    public hostId: string,
    private readonly deps: {
      repo: GameRepository;
      timers: Timers;
      publish: (table: LiveGame, events: readonly GameEvent[], state: GameState) => void;
      remember: (gameId: string, kind: DiscordRefKind, discordId: string | null) => Promise<void>;
      remind: (table: LiveGame, state: GameState, msLeft: number) => void;
    },
  ) {
    this.session = new GameSession(state, {
      timers: deps.timers,
      save: (before, events, after, how) => deps.repo.save(before, events, after, how),
      load: () => deps.repo.load(state.id),
      // Stored after what the caller does next: an interaction is acknowledged before its change is written.
      later: (run) => void setImmediate(run),
      publish: (events, after) => deps.publish(this, events, after),
      remind: (current, msLeft) => deps.remind(this, current, msLeft),
      reminders: REMINDER_OFFSETS_MS,
    });
  }

  // These ids are stored as they change, so a restarted process keeps editing the same messages.

  /** The lobby embed to keep current. */
  get lobbyMessageId(): string | null {
    return this.refs.lobby;
  }
  set lobbyMessageId(id: string | null) {
    this.remember('lobby', id);
  }

  /** The live vote message of the current vote, kept edited as votes come in. */
  get voteMessageId(): string | null {
    return this.refs.vote;
  }
  set voteMessageId(id: string | null) {
    this.remember('vote', id);
  }

  /** A trial day's nominations message, kept edited as nominations come in. */
  get nominationMessageId(): string | null {
    return this.refs.nominations;
  }
  set nominationMessageId(id: string | null) {
    this.remember('nominations', id);
  }

  /** The private thread of the game channel where the Mafia talk. */
  get mafiaThreadId(): string | null {
    return this.refs.mafia_thread;
  }
  set mafiaThreadId(id: string | null) {
    this.remember('mafia_thread', id);
  }

  /** Ids an earlier process stored (not written back). */
  restoreRefs(refs: DiscordRefs): void {
    for (const kind of DISCORD_REF_KINDS) this.refs[kind] = refs[kind] ?? null;
  }

  /** Resolves once every id set so far is stored. */
  refsSaved(): Promise<void> {
    return this.refWrites;
  }

  private remember(kind: DiscordRefKind, id: string | null): void {
    if (this.refs[kind] === id) return;
    this.refs[kind] = id;
    const gameId = this.state.id;
    this.refWrites = this.refWrites.then(() => this.deps.remember(gameId, kind, id));
  }

  get state(): GameState {
    return this.session.state;
  }

  /** Applies a command and resolves once it is stored and published (or refused, or undone). */
  submit(command: GameCommand): Promise<Result<Change, GameError | SessionError>> {
    return this.session.submit(command);
  }

  /** A person's command, decided and applied at once; they are answered once it is stored (`stored` says when), which goes before background writes. */
  apply(command: GameCommand): Result<Applied, GameError | SessionError> {
    return this.session.apply(command, { awaited: true });
  }
}

const CHANNEL_TAKEN = 'This channel already has a game open. Finish it (or ask the host to `/mafia end` it) before creating another.';

/** A new game checked and not yet stored. */
export interface LobbyDraft {
  readonly state: GameState;
  readonly channelId: string;
  readonly guildId: string;
  readonly hostId: string;
}

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
  /** The newest membership check of each game; the next waits for it. */
  private readonly checks = new WeakMap<LiveGame, Promise<void>>();
  /** When each person was last seen in each server (an interaction or a message there), as a running count. */
  private readonly seen = new Map<string, number>();
  private seenCount = 0;
  /** The count at each game's last membership check: someone seen since is still in the server. */
  private readonly checkedUpTo = new WeakMap<LiveGame, number>();
  /** A start of a game's AI seats under way: one per game, gone with its table. */
  private readonly aiStarting = new WeakMap<LiveGame, Promise<void>>();
  private readonly repo: GameRepository;
  /** Each open lobby's idle timer. */
  private readonly expiry: LobbyExpiry;
  /** Settles once resumeRunning has loaded every running game. */
  private resumed: Promise<void> = Promise.resolve();
  readonly output: GameOutput;

  constructor(private readonly deps: LiveGamesDeps) {
    this.repo = new GameRepository(deps.store);
    this.expiry = new LobbyExpiry(deps.timers, deps.lobbies.idleMinutes, (gameId) => this.background(this.expire(gameId)));
    this.output = new GameOutput(deps.client, deps.log, deps.timers, (channelId, loss) => void this.channelGone(channelId, loss));
    deps.client.on(Events.ChannelDelete, this.onChannelDelete);
    deps.client.on(Events.ThreadDelete, this.onThreadDelete);
    deps.client.on(Events.GuildDelete, this.onGuildDelete);
    deps.client.on(Events.InteractionCreate, this.onInteraction);
    deps.client.on(Events.MessageCreate, this.onMessage);
    const words: WithdrawnWordsDeps = {
      liveGameHolding: (channelId, ref, inDm) => this.holding(channelId, ref, inDm),
      store: deps.store,
      log: deps.log,
      now: () => deps.timers.now(),
    };
    const track = (work: Promise<void>) => this.background(work);
    this.onMessageUpdate = onMessageUpdate(words, track);
    this.onMessageDelete = onMessageDelete(words, track);
    this.onMessageDeleteBulk = onMessageDeleteBulk(words, track);
    deps.client.on(Events.MessageUpdate, this.onMessageUpdate);
    deps.client.on(Events.MessageDelete, this.onMessageDelete);
    deps.client.on(Events.MessageBulkDelete, this.onMessageDeleteBulk);
  }

  private readonly onMessageUpdate: ReturnType<typeof onMessageUpdate>;
  private readonly onMessageDelete: ReturnType<typeof onMessageDelete>;
  private readonly onMessageDeleteBulk: ReturnType<typeof onMessageDeleteBulk>;

  /**
   * The live game that took message `ref` in this channel: the game's channel or its Mafia thread,
   * or in a DM a game whose Mafia chat goes by DM. Answered from memory (running games are all
   * held from start-up); the log is read only for a game channel's or Mafia DM's own messages.
   */
  private holding(channelId: string, ref: string, inDm: boolean): LiveGame | undefined {
    const takes = (t: LiveGame) => engine.speechOf(t.state.log, ref) !== undefined;
    if (inDm) return this.live.find((t) => this.output.mafiaChatsByDm(t.state.id) && takes(t));
    const table = this.byChannel.get(channelId) ?? this.live.find((t) => t.mafiaThreadId === channelId);
    return table && takes(table) ? table : undefined;
  }

  private readonly onInteraction = (i: Interaction) => {
    if (i.inGuild()) this.sawMember(i.guildId, i.user.id);
    // A night pick by DM is playing in its game: as good a sign of being there as a word in its channel.
    else if (i.isMessageComponent() && i.customId.startsWith(`${NIGHT_SELECT}:`)) {
      const table = this.liveGame(customIdArgs(i.customId)[0] ?? '');
      if (table) this.sawMember(table.guildId, i.user.id);
    }
  };

  private readonly onMessage = (m: Message) => {
    if (m.inGuild() && !m.author.bot) this.sawMember(m.guildId, m.author.id);
  };

  private sawMember(guildId: string, userId: string): void {
    if (this.seen.size >= MAX_SEEN) this.seen.clear();
    this.seen.set(`${guildId}:${userId}`, ++this.seenCount);
  }

  private readonly onChannelDelete = (channel: DMChannel | GuildChannel) => {
    if (this.byChannel.has(channel.id)) this.output.channelGone(channel.id);
  };

  private readonly onThreadDelete = (thread: AnyThreadChannel) => {
    const table = thread.parentId ? this.byChannel.get(thread.parentId) : undefined;
    if (table?.mafiaThreadId === thread.id && table.state.phase !== 'ended') this.output.mafiaThreadGone(table);
  };

  /** Kicked from the server (or the server deleted): its games cannot go on anywhere. */
  private readonly onGuildDelete = (guild: Guild) => {
    for (const table of this.live) {
      if (table.guildId === guild.id) this.output.channelGone(table.channelId, { why: 'removed', server: guild.name });
    }
  };

  /** A game whose channel is gone is cancelled and stored as such, with why; its players are told by DM (the output does that). */
  private async channelGone(channelId: string, loss: ChannelLoss): Promise<void> {
    const table = this.byChannel.get(channelId) ?? (await this.inChannel(channelId));
    if (!table || table.state.phase === 'ended') return;
    table.driver?.stop();
    const reason = lossReason(loss);
    const cancelled = await table.submit((s, at) => engine.cancel(s, { by: null, reason, at }));
    if (!cancelled.ok) this.deps.log.warn(`game ${table.state.id} could not be cancelled (${reason}): ${cancelled.error.message}`);
  }

  /** A lobby idle too long is closed, as a host's end would; the channel hears why (the output tells the end). */
  private async expire(gameId: string): Promise<void> {
    const table = this.liveGame(gameId);
    if (!table || table.state.phase !== 'lobby') return;
    const closed = await table.submit((s, at) => closeIdleLobby(s, at, this.deps.lobbies.idleMinutes));
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
    const table = await this.inChannel(record.channelId);
    return table?.state.id === gameId ? table : null;
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
    const table = await this.inChannel(seat.channelId);
    const player = table?.state.id === seat.gameId ? table.state.players.find((p) => p.id === seat.playerId) : undefined;
    if (!table || !player) return ok(undefined); // That seat or lobby is gone already.
    const freed = await table.submit((s, at) => {
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
      const table = this.byChannel.get(parentId) ?? (await this.inChannel(parentId));
      return table?.mafiaThreadId === channelId ? table : null;
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
   * What can be refused without the database: bad settings, or a game of this process already in
   * the channel. Lets a command refuse privately before it acknowledges, and store after. The host
   * takes the first seat in the draft, so the lobby is stored with them in one write.
   */
  draft(input: {
    channelId: string;
    guildId: string;
    host: { readonly id: string; readonly name: string };
    settings: SettingsInput;
  }): Result<LobbyDraft, string> {
    if (this.byChannel.has(input.channelId)) return err(CHANNEL_TAKEN);
    const capped = lobbyCapRefusal(this.live, input.host.id, this.deps.lobbies.perHost);
    if (capped) return err(capped);
    const at = this.deps.timers.now();
    const created = engine.createGame({
      gameId: randomUUID(),
      seed: this.deps.newSeed?.() ?? randomInt(2 ** 31 - 1),
      settings: input.settings,
      at,
    });
    if (!created.ok) return err(created.error.message);
    const { id, name } = input.host;
    const seated = engine.join(created.value.state, { player: { id, name, kind: 'human', userId: id }, at });
    if (!seated.ok) return err(seated.error.message);
    return ok({ state: seated.value.state, channelId: input.channelId, guildId: input.guildId, hostId: id });
  }

  /** Opens a drafted lobby; refused when the channel already has an open game (perhaps only in the database). */
  async create(draft: LobbyDraft): Promise<Result<LiveGame, string>> {
    if (await this.inChannel(draft.channelId)) return err(CHANNEL_TAKEN);
    // Claim the channel before the next await, so two creates at once cannot both succeed.
    if (this.byChannel.has(draft.channelId)) return err('This channel already has a game open.');
    // Again after the wait: two creates at once in two channels must not pass the cap together.
    const capped = lobbyCapRefusal(this.live, draft.hostId, this.deps.lobbies.perHost);
    if (capped) return err(capped);
    const table = this.table(draft.state, draft);
    this.byChannel.set(draft.channelId, table);
    const stored = await this.repo.create(draft.state, { guildId: draft.guildId, channelId: draft.channelId, hostId: draft.hostId });
    if (!stored.ok) {
      this.byChannel.delete(draft.channelId);
      return err('The game could not be stored; nothing was created. Please try again.');
    }
    table.session.open();
    this.expiry.arm(table.state);
    return ok(table);
  }

  /** Seats the AI in the background (after the interaction's reply); failures go to the log. */
  seatAiLater(table: LiveGame): void {
    this.background(this.startAi(table));
  }

  /** Work after a reply or an event that idle and shutdown wait for; failures go to the log. */
  private background(work: Promise<void>): void {
    const tracked: Promise<void> = work
      .catch((error: unknown) => this.deps.log.error(`background work: ${String(error)}`))
      .finally(() => this.seating.delete(tracked));
    this.seating.add(tracked);
  }

  /**
   * At nightfall and daybreak (and as people join or leave a lobby), people who left the server are
   * taken out of the game ("left the game", role shown). Asked of Discord by REST, one member at a time (no privileged members intent
   * needed), and only of those not seen in the server since the game's last check: someone who
   * played or spoke there since (a night pick by DM included) is still a member (one who leaves
   * right after is out a phase later).
   */
  private async departures(table: LiveGame): Promise<void> {
    const guild = this.deps.client.guilds.cache.get(table.guildId);
    if (!guild) return;
    const since = this.checkedUpTo.get(table) ?? 0;
    this.checkedUpTo.set(table, this.seenCount);
    // Asked once per person per check: the host is usually seated too.
    const asked = new Map<string, Promise<boolean>>();
    const here = (userId: string): Promise<boolean> => {
      if ((this.seen.get(`${table.guildId}:${userId}`) ?? 0) > since) return Promise.resolve(true);
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
    for (const p of table.state.players) {
      const userId = p.userId;
      if (p.kind !== 'human' || !p.alive || !userId || (await here(userId))) continue;
      const lobby = table.state.phase === 'lobby';
      const left = await table.submit((s, at) =>
        lobby ? engine.leave(s, { playerId: p.id, at }) : engine.depart(s, { playerId: p.id, at }),
      );
      if (!left.ok) this.deps.log.warn(`${p.name} left ${table.state.id} but stays seated: ${left.error.message}`);
      else handedOver ||= left.value.events.some((e) => e.type === 'seat_taken_over');
    }
    // A seat an AI took over joins the AI seats: the driver is built again over the new seating, as after a restart.
    if (handedOver && table.driver) {
      table.driver.stop();
      table.driver = null;
      await this.startAi(table);
    }
    if (await here(table.hostId)) return;
    // The host left: the longest-seated person still here takes over, so the game can be started and ended.
    for (const p of table.state.players) {
      const userId = p.userId;
      if (p.kind !== 'human' || !userId || userId === table.hostId || !(await here(userId))) continue;
      table.hostId = userId;
      if (!(await this.deps.store.setHost(table.state.id, userId))) this.deps.log.warn(`new host of ${table.state.id} not stored`);
      this.output.hostChanged(table, p.name);
      return;
    }
  }

  /** How many entries each table of the live games and their output holds: what a long run watches stay flat. */
  held(): Record<string, number> {
    return {
      liveGames: this.byChannel.size,
      loading: this.loading.size,
      background: this.seating.size,
      seenMembers: this.seen.size,
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
  startAi(table: LiveGame): Promise<void> {
    if (table.driver || table.state.phase === 'lobby') return Promise.resolve();
    const under = this.aiStarting.get(table);
    if (under) return under;
    const starting = this.seatAi(table).finally(() => this.aiStarting.delete(table));
    this.aiStarting.set(table, starting);
    return starting;
  }

  private async seatAi(table: LiveGame): Promise<void> {
    table.avatars = await seatAvatars(this.deps.ai, table, table.state.players);
    table.driver = await driveAiSeats(this.deps.ai, table.session, table, (playerId, busy) => this.output.thinking(table, playerId, busy));
    await table.driver.resume();
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
    this.deps.client.off(Events.ChannelDelete, this.onChannelDelete);
    this.deps.client.off(Events.ThreadDelete, this.onThreadDelete);
    this.deps.client.off(Events.GuildDelete, this.onGuildDelete);
    this.deps.client.off(Events.InteractionCreate, this.onInteraction);
    this.deps.client.off(Events.MessageCreate, this.onMessage);
    this.deps.client.off(Events.MessageUpdate, this.onMessageUpdate);
    this.deps.client.off(Events.MessageDelete, this.onMessageDelete);
    this.deps.client.off(Events.MessageBulkDelete, this.onMessageDeleteBulk);
    this.expiry.disarmAll();
    await Promise.allSettled([...this.seating]);
    for (const table of this.byChannel.values()) {
      table.session.close();
      // Models still thinking are abandoned: the next process asks again from the stored log.
      table.driver?.stop();
    }
    await Promise.allSettled(this.live.flatMap((t) => (t.driver ? [t.driver.idle()] : [])));
    // Changes already answered for are stored before the process goes.
    await Promise.all(this.live.map((t) => t.session.settled()));
    await this.output.idle();
    await Promise.allSettled(this.live.map((t) => t.refsSaved()));
    this.byChannel.clear();
  }

  private table(state: GameState, place: { channelId: string; guildId: string; hostId: string }): LiveGame {
    return new LiveGame(state, place.channelId, place.guildId, place.hostId, {
      repo: this.repo,
      timers: this.deps.timers,
      publish: (table, events, after) => this.published(table, events, after),
      remember: (gameId, kind, discordId) => this.remember(gameId, kind, discordId),
      remind: (table, current, msLeft) => this.output.remind(table, current, msLeft),
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

  private published(table: LiveGame, events: readonly GameEvent[], state: GameState): void {
    table.driver?.onEvents(events);
    this.output.published(table, events, state);
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
      // One check at a time per game: two at once could both hand the host role on.
      const next = (this.checks.get(table) ?? Promise.resolve()).catch(() => undefined).then(() => this.departures(table));
      this.checks.set(table, next);
      this.background(next);
    }
    if (state.phase === 'ended') {
      const ended = this.deps.gameEnded;
      if (ended) this.background(ended(table.guildId).then(() => undefined));
      table.session.close();
      if (this.byChannel.get(table.channelId) === table) this.byChannel.delete(table.channelId);
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
    const table = this.table(loaded.value, { channelId, guildId: record.guildId ?? '', hostId: record.hostId ?? '' });
    table.restoreRefs(refs);
    await this.output.recover(table);
    // The AI seats' moves already due go in before the phase can resolve: the deadline runs only
    // after them (open), and an interaction about this game waits for it here (inChannel), acknowledged.
    await this.startAi(table);
    if (table.state.phase === 'ended') return null;
    this.byChannel.set(channelId, table);
    table.session.open();
    this.expiry.arm(table.state);
    return table;
  }
}
