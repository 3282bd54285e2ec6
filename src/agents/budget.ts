/** One model call's cost, as the LlmCall table keeps it. */
export interface CallCost {
  guildId: string | null;
  gameId: string | null;
  playerId: string | null;
  purpose: string;
  provider: string;
  model: string;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  latencyMs: number;
  ok: boolean;
  errorKind: string | null;
  /** epoch ms; now when absent */
  at?: number;
}

/** What the budget needs from storage (the LlmCall table, or memory in tests and demos). */
export interface TokenLedger {
  record(call: CallCost): Promise<void>;
  tokensSince(guildId: string, since: number): Promise<number>;
}

const DAY_MS = 86_400_000;

/**
 * The per-server daily token budget, checked before every call. Totals are read from
 * the ledger once per server and day, then kept up to date in memory as calls are recorded.
 */
export class TokenBudget {
  private readonly spent = new Map<string, { day: number; tokens: number }>();

  constructor(
    private readonly ledger: TokenLedger,
    /** Tokens per server per UTC day; 0 means unlimited. */
    readonly dailyLimit: number,
    private readonly now: () => number = Date.now,
  ) {}

  async allows(guildId: string | null): Promise<boolean> {
    if (this.dailyLimit === 0 || guildId === null) return true;
    return (await this.spentToday(guildId)) < this.dailyLimit;
  }

  async spentToday(guildId: string): Promise<number> {
    const day = Math.floor(this.now() / DAY_MS);
    const cached = this.spent.get(guildId);
    if (cached?.day === day) return cached.tokens;
    const tokens = await this.ledger.tokensSince(guildId, day * DAY_MS);
    this.spent.set(guildId, { day, tokens });
    return tokens;
  }

  async record(call: CallCost): Promise<void> {
    await this.ledger.record(call);
    if (call.guildId === null) return;
    const day = Math.floor(this.now() / DAY_MS);
    const cached = this.spent.get(call.guildId);
    if (cached?.day === day) cached.tokens += call.inputTokens + call.outputTokens;
  }
}

/** A ledger in memory, for demos and tests. */
export function memoryLedger(): TokenLedger & { readonly calls: CallCost[] } {
  const calls: CallCost[] = [];
  return {
    calls,
    async record(call) {
      calls.push({ ...call, at: call.at ?? Date.now() });
    },
    async tokensSince(guildId, since) {
      return calls
        .filter((c) => c.guildId === guildId && (c.at ?? 0) >= since)
        .reduce((sum, c) => sum + c.inputTokens + c.outputTokens, 0);
    },
  };
}
