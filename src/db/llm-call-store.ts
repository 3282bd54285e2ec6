import type { PrismaClient } from './generated/client.ts';

/** One model call's cost, as the LlmCall table keeps it. */
export interface CallCost {
  guildId: string | null;
  gameId: string | null;
  playerId: string | null;
  /** The persona the call was for, outside games (a profile, a test, the editor); absent means none. */
  personaId?: string | null;
  /** The person whose command made the call, whose own daily budget it counts against; absent or null for a game's AI seats. */
  userId?: string | null;
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

/** Whose spending a daily budget adds up: a server's, every DM's together (guildId null), or one person's everywhere. */
export type Spender = { readonly guildId: string | null } | { readonly userId: string };

/** What a spender's calls used: input plus output tokens, and USD at list price (a model without a price adds none). */
export interface Spent {
  tokens: number;
  dollars: number;
}

/** Every model call, for cost reports and the daily budgets. */
export interface LlmCallStore {
  record(call: CallCost): Promise<void>;
  /** What a spender used since `since` (epoch ms). */
  spentSince(spender: Spender, since: number): Promise<Spent>;
  /** Calls of one game, oldest first. */
  forGame(gameId: string): Promise<CallCost[]>;
}

export function createLlmCallStore(prisma: PrismaClient): LlmCallStore {
  return {
    async record({ at, ...call }) {
      await prisma.llmCall.create({ data: { ...call, ...(at === undefined ? {} : { createdAt: new Date(at) }) } });
    },
    async spentSince(spender, since) {
      // Indexed by (guildId, createdAt) and (userId, createdAt).
      const sum = await prisma.llmCall.aggregate({
        where: { ...spender, createdAt: { gte: new Date(since) } },
        _sum: { inputTokens: true, outputTokens: true, costUsd: true },
      });
      return { tokens: (sum._sum.inputTokens ?? 0) + (sum._sum.outputTokens ?? 0), dollars: sum._sum.costUsd?.toNumber() ?? 0 };
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
