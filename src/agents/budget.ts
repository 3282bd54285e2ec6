import type { CallCost } from '../db/llm-call-store.ts';
import type { CallRecord } from '../llm/tool-loop.ts';
import { listPriceDollars } from '../models.ts';

/** What the budget needs from storage (the LlmCall table, or memory in tests and demos). */
export interface TokenLedger {
  record(call: CallCost): Promise<void>;
  /** Tokens spent since `since` in one server, or in DMs (null). */
  tokensSince(guildId: string | null, since: number): Promise<number>;
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

/** What a person is told when a budget is spent: which one (their server's, or the DMs'), and when it resets. */
export function budgetSpentMessage(now: number, inDms = false): string {
  const minutes = Math.max(1, Math.ceil((nextUtcMidnight(now) - now) / MINUTE_MS));
  const hours = Math.floor(minutes / 60);
  const wait = hours > 0 ? `${hours} h ${minutes % 60} min` : `${minutes} min`;
  const which = inDms ? "The bot's AI budget for DMs" : "This server's AI budget";
  return `${which} for today is spent; it resets at midnight UTC (in ${wait}).`;
}

/** The start of the next UTC day, when every server's budget resets. */
export function nextUtcMidnight(now: number): number {
  return (Math.floor(now / DAY_MS) + 1) * DAY_MS;
}

/** Servers whose spending today is kept; past it the table starts over (each server's total is read again from the ledger). */
const SERVERS_KEPT = 10_000;
/** The key of the DMs' spending: no server id looks like it. */
const DMS = 'dms';

/**
 * The daily token budgets, checked before every call: one per server, and one for every call made
 * in DMs together (`/persona` works there, on the bot's key). Totals are read from the ledger once
 * per server and day, then kept up to date in memory as calls are recorded.
 */
export class TokenBudget {
  /** Per server (and the DMs), today's tokens (bound: SERVERS_KEPT). */
  private readonly spent = new Map<string, { day: number; tokens: number }>();

  constructor(
    private readonly ledger: TokenLedger,
    /** Tokens per server per UTC day; 0 means unlimited. */
    readonly dailyLimit: number,
    private readonly now: () => number = Date.now,
    /** Tokens spent in DMs, all of them together, per UTC day; 0 means unlimited. */
    readonly dmDailyLimit = 0,
  ) {}

  async allows(guildId: string | null): Promise<boolean> {
    const limit = guildId === null ? this.dmDailyLimit : this.dailyLimit;
    if (limit === 0) return true;
    return (await this.spentToday(guildId)) < limit;
  }

  /** Tokens spent today in a server, or in DMs (null). */
  async spentToday(guildId: string | null): Promise<number> {
    const key = guildId ?? DMS;
    const day = Math.floor(this.now() / DAY_MS);
    const cached = this.spent.get(key);
    if (cached?.day === day) return cached.tokens;
    const tokens = await this.ledger.tokensSince(guildId, day * DAY_MS);
    if (this.spent.size >= SERVERS_KEPT && !this.spent.has(key)) this.spent.clear();
    this.spent.set(key, { day, tokens });
    return tokens;
  }

  /** The sentence for a refusal where the call was made: which budget is spent and when it resets, by this budget's clock. */
  spentMessage(guildId: string | null): string {
    return budgetSpentMessage(this.now(), guildId === null);
  }

  async record(call: CallCost): Promise<void> {
    // Counted before the row is written, so a check made meanwhile (a tool run right after the
    // call that spent the budget) already sees it.
    const day = Math.floor(this.now() / DAY_MS);
    const cached = this.spent.get(call.guildId ?? DMS);
    if (cached?.day === day) cached.tokens += call.inputTokens + call.outputTokens;
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
