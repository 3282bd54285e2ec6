import type { CallCost } from '../agents/budget.ts';
import type { PrismaClient } from './generated/client.ts';

/** The agents' record of one call's cost is exactly what this table keeps. */
export type LlmCallRecord = CallCost;

/** Every model call, for cost reports and the per-server daily token budget. */
export interface LlmCallStore {
  record(call: LlmCallRecord): Promise<void>;
  /** Input plus output tokens a server has spent since `since` (epoch ms). */
  tokensSince(guildId: string, since: number): Promise<number>;
  /** Calls of one game, oldest first. */
  forGame(gameId: string): Promise<LlmCallRecord[]>;
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
      return rows.map(({ id: _id, createdAt, ...row }) => ({ ...row, at: createdAt.getTime() }));
    },
  };
}
