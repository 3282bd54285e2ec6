import { fold, GameEventSchema, isSpeechRewrite, rewrittenBy, type GameEvent, type GameState } from '../game/index.ts';
import { err, ok, type Result } from '../result.ts';
import { urgently } from './db-priority.ts';
import type { GameProjection, GameStore, Json, StoredEvent, StoredRewrite } from './game-store.ts';

/** Engine events are plain JSON by construction (zod schemas of strings, numbers, records). */
function asJson(value: unknown): Json {
  return value as Json;
}

function toStoredEvent(event: GameEvent): StoredEvent {
  return {
    seq: event.seq,
    type: event.type,
    at: event.at,
    visibility: asJson(event.visibility),
    payload: asJson(event.payload),
  };
}

/**
 * The stored events `events` rewrite, as `after` holds them now: an edited speech's new words, a
 * deleted speech and its edits blanked. Only those before `events` (the new ones go in as they are).
 */
function rewritesOf(events: readonly GameEvent[], after: GameState): StoredRewrite[] | undefined {
  const first = events[0]?.seq;
  if (first === undefined || !events.some(isSpeechRewrite)) return undefined;
  const seqs = new Set(events.flatMap((e) => rewrittenBy(after.log, e)).filter((seq) => seq < first));
  return [...seqs].map((seq) => ({ seq, payload: asJson(after.log[seq - 1]?.payload) }));
}

/** Validates rows back into engine events; a row that does not parse is reported, never guessed at. */
export function parseStoredEvents(rows: readonly StoredEvent[]): Result<GameEvent[], string> {
  const events: GameEvent[] = [];
  for (const row of rows) {
    const parsed = GameEventSchema.safeParse(row);
    if (!parsed.success) {
      return err(`event #${row.seq} (${row.type}) does not match its schema: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    }
    events.push(parsed.data);
  }
  return ok(events);
}

function projectGame(state: GameState): GameProjection {
  return {
    phase: state.phase,
    status: state.phase === 'lobby' ? 'lobby' : state.phase === 'ended' ? 'ended' : 'running',
    day: state.day,
    deadline: state.deadline,
    players: state.players.map((p) => ({
      playerId: p.id,
      seat: p.seat,
      displayName: p.name,
      kind: p.kind,
      userId: p.userId,
      personaId: p.personaId,
      role: p.role,
      alive: p.alive,
      lastWill: p.will,
    })),
  };
}

export interface GamePlace {
  readonly guildId: string | null;
  readonly channelId: string | null;
  readonly hostId: string | null;
}

/** A game's place in a server: a game played in a channel has every part of it. */
export type ServerPlace = { readonly [K in keyof GamePlace]: NonNullable<GamePlace[K]> };

/** Engine-level persistence: a game is its event log; the rows beside it are a projection. */
export class GameRepository {
  constructor(private readonly store: GameStore) {}

  /** Stores a game that `createGame` (and maybe more commands) produced. */
  async create(state: GameState, place: GamePlace): Promise<Result<void, 'exists' | 'conflict'>> {
    // A person waits for every new game (/mafia create): it goes before background writes.
    return urgently(() => this.created(state, place));
  }

  private async created(state: GameState, place: GamePlace): Promise<Result<void, 'exists' | 'conflict'>> {
    const created = await this.store.createGame({ id: state.id, seed: state.seed, settings: asJson(state.settings), ...place });
    if (!created.ok) return created;
    const appended = await this.store.append(state.id, 0, state.log.map(toStoredEvent), projectGame(state));
    return appended.ok ? ok(undefined) : err('conflict');
  }

  /**
   * Appends what one command produced; a writer that raced another gets 'conflict' and nothing is
   * written. `awaited`: a person waits for it, so it goes before background writes.
   */
  save(
    before: GameState,
    events: readonly GameEvent[],
    after: GameState,
    how: { readonly awaited: boolean } = { awaited: false },
  ): Promise<Result<void, 'conflict' | 'not_found'>> {
    const rewrites = rewritesOf(events, after);
    // As the log holds them now: a speech withdrawn within the same command goes in withdrawn.
    const stored = rewrites ? events.map((e) => toStoredEvent(after.log[e.seq - 1] ?? e)) : events.map(toStoredEvent);
    const append = () => this.store.append(after.id, before.log.length, stored, projectGame(after), projectGame(before), rewrites);
    return how.awaited ? urgently(append) : append();
  }

  /** Folds the stored log back into the state it was saved from. */
  async load(gameId: string): Promise<Result<GameState, 'not_found' | { corrupt: string }>> {
    const rows = await this.store.loadEvents(gameId);
    if (rows.length === 0) return err('not_found');
    const events = parseStoredEvents(rows);
    if (!events.ok) return err({ corrupt: events.error });
    try {
      return ok(fold(events.value));
    } catch (error) {
      return err({ corrupt: error instanceof Error ? error.message : String(error) });
    }
  }
}
