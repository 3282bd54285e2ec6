/** What the budget needs from storage (the LlmCall table, or memory in tests and demos). */
export interface TokenLedger {
  record(call: { guildId: string | null; inputTokens: number; outputTokens: number } & Record<string, unknown>): Promise<void>;
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

  async record(call: Parameters<TokenLedger['record']>[0]): Promise<void> {
    await this.ledger.record(call);
    if (call.guildId === null) return;
    const day = Math.floor(this.now() / DAY_MS);
    const cached = this.spent.get(call.guildId);
    if (cached?.day === day) cached.tokens += call.inputTokens + call.outputTokens;
  }
}

/** A ledger in memory, for demos and tests. */
export function memoryLedger(): TokenLedger & { readonly calls: Parameters<TokenLedger['record']>[0][] } {
  const calls: Parameters<TokenLedger['record']>[0][] = [];
  return {
    calls,
    async record(call) {
      calls.push({ ...call, at: typeof call.at === 'number' ? call.at : Date.now() });
    },
    async tokensSince(guildId, since) {
      return calls
        .filter((c) => c.guildId === guildId && (typeof c.at !== 'number' || c.at >= since))
        .reduce((sum, c) => sum + c.inputTokens + c.outputTokens, 0);
    },
  };
}
