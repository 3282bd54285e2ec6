import { z } from 'zod';
import { BeliefsSchema } from './beliefs.ts';
import type { MindStore, SeatMind } from './ai-players.ts';

type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** What a minds table needs: GameStore's saveMind/loadMinds. */
export interface MindRows {
  saveMind(gameId: string, playerId: string, mind: { memory: JsonValue; beliefs: JsonValue }): Promise<unknown>;
  loadMinds(gameId: string): Promise<Record<string, { memory: JsonValue; beliefs: JsonValue }>>;
}

const MemorySchema = z.array(z.string());

/** Minds kept in the players' rows; a row that does not parse starts that seat afresh rather than failing the game. */
export function mindStoreOver(rows: MindRows): MindStore {
  return {
    async load(gameId) {
      const minds: Record<string, SeatMind> = {};
      for (const [playerId, row] of Object.entries(await rows.loadMinds(gameId))) {
        const beliefs = BeliefsSchema.safeParse(row.beliefs);
        const memory = MemorySchema.safeParse(row.memory);
        minds[playerId] = { beliefs: beliefs.success ? beliefs.data : {}, memory: memory.success ? memory.data : [] };
      }
      return minds;
    },
    async save(gameId, playerId, mind) {
      await rows.saveMind(gameId, playerId, { memory: [...mind.memory], beliefs: mind.beliefs });
    },
  };
}
