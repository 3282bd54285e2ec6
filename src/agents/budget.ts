import type { CallCost } from '../db/llm-call-store.ts';
import type { CallRecord } from '../llm/tool-loop.ts';
import { listPriceDollars } from '../models.ts';

/** What the budget needs from storage (the LlmCall table, or memory in tests and demos). */
export interface TokenLedger {
  record(call: CallCost): Promise<void>;
  tokensSince(guildId: string, since: number): Promise<number>;
}

/**
 * Where a call was made and what for: the context of its ledger row. `guildId` is the server
 * whose budget pays (null in DMs); what a site does not name is null in the row.
 */
export interface CostSite {
  readonly guildId: string | null;
  readonly gameId?: string | null;
  readonly playerId?: string | null;
  readonly personaId?: string | null;
  /** The feature that made the call: decision, summary, editor, profile, card_import, persona_test, editor_test. */
  readonly purpose: string;
}

/** The one mapping from a call record to its ledger row, priced at the model table's list price. */
export function callCost(site: CostSite, record: CallRecord): CallCost {
  const { usage } = record;
  return {
    guildId: site.guildId,
    gameId: site.gameId ?? null,
    playerId: site.playerId ?? null,
    personaId: site.personaId ?? null,
    purpose: site.purpose,
    provider: record.provider,
    model: record.model,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cachedInputTokens: usage.cachedInputTokens,
    cacheWriteInputTokens: usage.cacheWriteInputTokens ?? 0,
    cacheWrite1hInputTokens: usage.cacheWrite1hInputTokens ?? 0,
    costUsd: listPriceDollars(record.provider, record.model, usage),
    latencyMs: Math.round(record.latencyMs),
    ok: record.ok,
    errorKind: record.ok ? null : record.error,
  };
}

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** What a person is told when their server's budget is spent: that it is, and when it resets. */
export function budgetSpentMessage(now: number): string {
  const minutes = Math.max(1, Math.ceil((nextUtcMidnight(now) - now) / MINUTE_MS));
  const hours = Math.floor(minutes / 60);
  const wait = hours > 0 ? `${hours} h ${minutes % 60} min` : `${minutes} min`;
  return `This server's AI budget for today is spent; it resets at midnight UTC (in ${wait}).`;
}

/** The start of the next UTC day, when every server's budget resets. */
export function nextUtcMidnight(now: number): number {
  return (Math.floor(now / DAY_MS) + 1) * DAY_MS;
}

/**
 * The per-server daily token budget, checked before every call. Totals are read from
 * the ledger once per server and day, then kept up to date in memory as calls are recorded.
 */
/** Servers whose spending today is kept; past it the table starts over (each server's total is read again from the ledger). */
const SERVERS_KEPT = 10_000;

export class TokenBudget {
  /** Per server, today's tokens (bound: SERVERS_KEPT). */
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
    if (this.spent.size >= SERVERS_KEPT && !this.spent.has(guildId)) this.spent.clear();
    this.spent.set(guildId, { day, tokens });
    return tokens;
  }

  /** The sentence for a refusal: the budget is spent and when it resets, by this budget's clock. */
  spentMessage(): string {
    return budgetSpentMessage(this.now());
  }

  async record(call: CallCost): Promise<void> {
    // Counted before the row is written, so a check made meanwhile (a tool run right after the
    // call that spent the budget) already sees it.
    if (call.guildId !== null) {
      const day = Math.floor(this.now() / DAY_MS);
      const cached = this.spent.get(call.guildId);
      if (cached?.day === day) cached.tokens += call.inputTokens + call.outputTokens;
    }
    await this.ledger.record(call);
  }
}

/** A ledger in memory, for demos and tests. */
export function memoryLedger(): TokenLedger & { readonly calls: CallCost[] } {
  const calls: CallCost[] = [];
  return {
    calls,
    record(call) {
      calls.push({ ...call, at: call.at ?? Date.now() });
      return Promise.resolve();
    },
    tokensSince(guildId, since) {
      return Promise.resolve(
        calls.filter((c) => c.guildId === guildId && (c.at ?? 0) >= since).reduce((sum, c) => sum + c.inputTokens + c.outputTokens, 0),
      );
    },
  };
}
