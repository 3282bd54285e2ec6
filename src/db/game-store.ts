import { gameDiscordRefs, type GameDiscordRefStore } from './game-discord-refs.ts';
import { gameDmChats, type GameDmChats } from './game-dm-chats.ts';
import { gameEventLog, type GameEventLog, type GameWriteOptions } from './game-event-log.ts';
import { gameMinds, type GameMinds } from './game-minds.ts';
import { gameRows, type GameRows } from './game-rows.ts';
import { gameSpeechRefs, type GameSpeechRefs } from './game-speech-refs.ts';
import type { PrismaClient } from './generated/client.ts';

export type * from './game-records.ts';
export { DISCORD_REF_KINDS } from './game-records.ts';

/**
 * Games as an append-only event log plus a projection (Game and GamePlayer rows)
 * rewritten in the same transaction. Expected outcomes come back as values;
 * a broken connection still rejects. Each concern lives in its own file.
 */
export interface GameStore extends GameRows, GameEventLog, GameMinds, GameDiscordRefStore, GameDmChats, GameSpeechRefs {}

export function createGameStore(prisma: PrismaClient, writes: GameWriteOptions = {}): GameStore {
  return {
    ...gameRows(prisma),
    ...gameEventLog(prisma, writes),
    ...gameMinds(prisma),
    ...gameDiscordRefs(prisma),
    ...gameDmChats(prisma),
    ...gameSpeechRefs(prisma),
  };
}
