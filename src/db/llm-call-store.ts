import type { PrismaClient } from './generated/client.ts';

/** One model call's cost, as the LlmCall table keeps it. */
export interface CallCost {
  guildId: string | null;
  gameId: string | null;
  playerId: string | null;
  /** The persona the call was for, outside games (a profile, a test, the editor); absent means none. */
  personaId?: string | null;
  purpose: string;
  provider: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  /** The part of inputTokens written to the prompt cache, and of that the part written for an hour. */
  cacheWriteInputTokens: number;
  cacheWrite1hInputTokens: number;
  /** USD at the model table's list price (src/models.ts); null for a model the table lacks. */
  costUsd: number | null;
  latencyMs: number;
  ok: boolean;
  errorKind: string | null;
  /** epoch ms; now when absent */
  at?: number;
}

/** Every model call, for cost reports and the per-server daily token budget. */
export interface LlmCallStore {
  record(call: CallCost): Promise<void>;
  /** Input plus output tokens spent since `since` (epoch ms) in a server, or in DMs (null). */
  tokensSince(guildId: string | null, since: number): Promise<number>;
  /** Calls of one game, oldest first. */
  forGame(gameId: string): Promise<CallCost[]>;
}

export function createLlmCallStore(prisma: PrismaClient): LlmCallStore {
  return {
    async record({ at, ...call }) {
      await prisma.llmCall.create({ data: { ...call, ...(at === undefined ? {} : { createdAt: new Date(at) }) } });
    },
    async tokensSince(guildId, since) {
      const sum = await prisma.llmCall.aggregate({
        where: { guildId, createdAt: { gte: new Date(since) } },
        _sum: { inputTokens: true, outputTokens: true },
      });
      return (sum._sum.inputTokens ?? 0) + (sum._sum.outputTokens ?? 0);
    },
    async forGame(gameId) {
      const rows = await prisma.llmCall.findMany({ where: { gameId }, orderBy: { createdAt: 'asc' } });
      return rows.map(({ id: _id, createdAt, costUsd, ...row }) => ({
        ...row,
        costUsd: costUsd === null ? null : costUsd.toNumber(),
        at: createdAt.getTime(),
      }));
    },
  };
}
