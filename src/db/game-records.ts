// The store's vocabulary: plain JSON-friendly records, independent of the engine.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export type GameStatus = 'lobby' | 'running' | 'ended';
export type PlayerKind = 'human' | 'ai';

export interface NewGameRecord {
  id: string;
  guildId: string | null;
  channelId: string | null;
  hostId: string | null;
  seed: number;
  settings: Json;
}

export interface StoredEvent {
  seq: number;
  type: string;
  /** epoch ms */
  at: number;
  visibility: Json;
  payload: Json;
}

/** An earlier event's payload as a later one left it (an edited or deleted speech): written over the stored row. */
export interface StoredRewrite {
  seq: number;
  payload: Json;
}

export interface PlayerProjection {
  playerId: string;
  seat: number;
  displayName: string;
  kind: PlayerKind;
  userId: string | null;
  personaId: string | null;
  role: string | null;
  alive: boolean;
  lastWill: string | null;
}

export interface GameProjection {
  phase: string;
  status: GameStatus;
  day: number;
  /** epoch ms */
  deadline: number | null;
  players: PlayerProjection[];
}

/** A game row with its projection, as getGame/findOpenGameInChannel return it. */
export interface StoredGame extends NewGameRecord, GameProjection {
  /** seq of the newest event, 0 when none: the expectedLastSeq for the next append. */
  lastSeq: number;
  /** epoch ms */
  createdAt: number;
  /** epoch ms */
  updatedAt: number;
  /** epoch ms */
  endedAt: number | null;
}

/** An AI player's private state, saved apart from the event log. */
export interface Mind {
  memory: Json;
  beliefs: Json;
}

/** Discord things a game keeps using across restarts: its lobby embed, live vote message, trial day's nominations message and Mafia thread. */
export type DiscordRefKind = 'lobby' | 'vote' | 'nominations' | 'mafia_thread';
export const DISCORD_REF_KINDS: readonly DiscordRefKind[] = ['lobby', 'vote', 'nominations', 'mafia_thread'];
export type DiscordRefs = Partial<Record<DiscordRefKind, string>>;
