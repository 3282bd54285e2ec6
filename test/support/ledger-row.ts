import type { CallCost } from '../../src/db/llm-call-store.ts';

/** A ledger row of an earlier call: `tokens` of input, nothing cached, no price; what the test names overrides. */
export function ledgerRow(tokens: number, over: Partial<CallCost> = {}): CallCost {
  return {
    guildId: null,
    gameId: null,
    playerId: null,
    purpose: 'decision',
    provider: 'openai',
    model: 'earlier',
    inputTokens: tokens,
    outputTokens: 0,
    cachedInputTokens: 0,
    cacheWriteInputTokens: 0,
    cacheWrite1hInputTokens: 0,
    costUsd: null,
    latencyMs: 1,
    ok: true,
    errorKind: null,
    ...over,
  };
}
