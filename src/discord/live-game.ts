import type { AiDriver } from '../agents/driver/ai-driver.ts';
import { GameSession, type Applied, type GameCommand, type SessionError } from '../session/game-session.ts';
import type { Timers } from '../clock.ts';
import type { GameRepository } from '../db/game-repository.ts';
import { DISCORD_REF_KINDS, type DiscordRefKind, type DiscordRefs } from '../db/game-store.ts';
import type { Change, GameError, GameEvent, GameState } from '../game/index.ts';
import type { Result } from '../result.ts';
import { REMINDER_OFFSETS_MS } from './presenters/reminder.ts';

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
      publish: (game: LiveGame, events: readonly GameEvent[], state: GameState) => void;
      remember: (gameId: string, kind: DiscordRefKind, discordId: string | null) => Promise<void>;
      remind: (game: LiveGame, state: GameState, msLeft: number) => void;
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
