import { z } from 'zod';
import { BeliefsSchema, VotingBlocsSchema } from './beliefs.ts';
import type { MindStore, SeatMind } from './ai-seats.ts';

type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** What a minds table needs: GameStore's saveMind/loadMinds. */
export interface MindRows {
  saveMind(gameId: string, playerId: string, mind: { memory: JsonValue; beliefs: JsonValue }): Promise<unknown>;
  loadMinds(gameId: string): Promise<Record<string, { memory: JsonValue; beliefs: JsonValue }>>;
}

const MemorySchema = z.array(z.string());

/**
 * The beliefs column: the seat's reads and the voting blocs it saw. A row written before blocs were
 * kept holds the reads alone, and reads them so.
 */
const StoredBeliefsSchema = z.union([
  z.object({ reads: BeliefsSchema, blocs: VotingBlocsSchema }),
  BeliefsSchema.transform((reads) => ({ reads, blocs: [] })),
]);

/** Minds kept in the players' rows; a row that does not parse starts that seat afresh rather than failing the game. */
export function mindStoreOver(rows: MindRows): MindStore {
  return {
    async load(gameId) {
      const minds: Record<string, SeatMind> = {};
      for (const [playerId, row] of Object.entries(await rows.loadMinds(gameId))) {
        const beliefs = StoredBeliefsSchema.safeParse(row.beliefs);
        const memory = MemorySchema.safeParse(row.memory);
        minds[playerId] = {
          beliefs: beliefs.success ? beliefs.data.reads : {},
          memory: memory.success ? memory.data : [],
          blocs: beliefs.success ? beliefs.data.blocs : [],
        };
      }
      return minds;
    },
    async save(gameId, playerId, mind) {
      const blocs = (mind.blocs ?? []).map((b) => ({ players: [...b.players], together: b.together, of: b.of }));
      await rows.saveMind(gameId, playerId, { memory: [...mind.memory], beliefs: { reads: mind.beliefs, blocs } });
    },
  };
}
