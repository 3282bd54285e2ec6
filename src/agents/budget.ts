import type { LlmConfig } from '../config.ts';
import type { CallCost, Spender, Spent } from '../db/llm-call-store.ts';
import type { CallRecord } from '../llm/metered.ts';
import { listPriceDollars } from '../models.ts';

/** What the budgets need from storage (the LlmCall table, or memory in tests and demos). */
export interface TokenLedger {
  record(call: CallCost): Promise<void>;
  /** What a server, the DMs (guildId null) or one person spent since `since`. */
  spentSince(spender: Spender, since: number): Promise<Spent>;
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
  /**
   * The person whose command made the call (/persona create, import, test, the editor): their own
   * daily budget counts it too. Null or absent for a game's AI seats, which the server pays alone.
   */
  readonly userId?: string | null;
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
    userId: site.userId ?? null,
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

/** The three daily budgets: each server's, every DM's together, and each person's across servers and DMs. */
export type BudgetKind = 'server' | 'dms' | 'user';

const SPENT_WHAT: Record<BudgetKind, string> = {
  user: 'Your own AI budget for today (what you ask of the AI in every server and in DMs)',
  server: "This server's AI budget for today",
  dms: "The bot's AI budget for DMs for today",
};

/** What a person is told when a budget is spent: which one (theirs, their server's, or the DMs'), and when it resets. */
export function budgetSpentMessage(now: number, which: BudgetKind = 'server'): string {
  const minutes = Math.max(1, Math.ceil((nextUtcMidnight(now) - now) / MINUTE_MS));
  const hours = Math.floor(minutes / 60);
  const wait = hours > 0 ? `${hours} h ${minutes % 60} min` : `${minutes} min`;
  return `${SPENT_WHAT[which]} is spent; it resets at midnight UTC (in ${wait}).`;
}

/** The start of the next UTC day, when every budget resets. */
export function nextUtcMidnight(now: number): number {
  return (Math.floor(now / DAY_MS) + 1) * DAY_MS;
}

/** A day's allowance; 0 means unlimited. Dollars at the model table's list price, so a dear model spends it faster. */
export interface Allowance {
  readonly tokens: number;
  readonly dollars: number;
}

/** Each budget's allowance; what is not given is unlimited. */
export type BudgetLimits = { readonly [K in BudgetKind]?: Partial<Allowance> };

/** The budgets the settings set; what a configuration leaves out is unlimited. */
export function budgetLimits(llm: LlmConfig): BudgetLimits {
  return {
    server: { tokens: llm.dailyTokenBudget, dollars: llm.serverDailyDollarBudget ?? 0 },
    dms: { tokens: llm.dmDailyTokenBudget ?? 0, dollars: llm.dmDailyDollarBudget ?? 0 },
    user: { tokens: llm.userDailyTokenBudget ?? 0, dollars: llm.userDailyDollarBudget ?? 0 },
  };
}

/** Spenders whose spending today is kept; past it the table starts over (each total is read again from the ledger). */
const SPENDERS_KEPT = 50_000;

const spenderKey = (spender: Spender): string =>
  'userId' in spender ? `user:${spender.userId}` : spender.guildId === null ? 'dms' : `server:${spender.guildId}`;

/**
 * The daily budgets, checked before every call: one per server, one for every call made in DMs
 * together (`/persona` works there, on the bot's key), and one per person across servers and DMs
 * (a game's AI seats have no person: the server alone pays for them). Each counts tokens and
 * dollars. Totals are read from the ledger once per spender and day, then kept up to date in
 * memory as calls are recorded.
 */
export class TokenBudget {
  /** Per spender, today's spending (bound: SPENDERS_KEPT). */
  private readonly spent = new Map<string, { day: number } & Spent>();
  private readonly limits: Readonly<Record<BudgetKind, Allowance>>;

  constructor(
    private readonly ledger: TokenLedger,
    limits: BudgetLimits,
    private readonly now: () => number = Date.now,
  ) {
    const allowance = (kind: BudgetKind): Allowance => ({ tokens: limits[kind]?.tokens ?? 0, dollars: limits[kind]?.dollars ?? 0 });
    this.limits = { server: allowance('server'), dms: allowance('dms'), user: allowance('user') };
  }

  /**
   * Null when every budget that applies to a call has room: the place's (the server's, or the
   * DMs') and, when a person asked for it, theirs. Else the sentence for that person naming the
   * budget spent (theirs first) and when it resets.
   */
  async refusal(guildId: string | null, userId: string | null = null): Promise<string | null> {
    const applying: [BudgetKind, Spender][] = [
      ...(userId === null ? [] : [['user', { userId }] as [BudgetKind, Spender]]),
      [guildId === null ? 'dms' : 'server', { guildId }],
    ];
    for (const [kind, spender] of applying) {
      if (await this.isSpent(kind, spender)) return budgetSpentMessage(this.now(), kind);
    }
    return null;
  }

  async allows(guildId: string | null, userId: string | null = null): Promise<boolean> {
    return (await this.refusal(guildId, userId)) === null;
  }

  private async isSpent(kind: BudgetKind, spender: Spender): Promise<boolean> {
    const limit = this.limits[kind];
    if (limit.tokens === 0 && limit.dollars === 0) return false;
    const spent = await this.spentToday(spender);
    return (limit.tokens > 0 && spent.tokens >= limit.tokens) || (limit.dollars > 0 && spent.dollars >= limit.dollars);
  }

  /** What a server, the DMs or a person spent today. */
  async spentToday(spender: Spender): Promise<Spent> {
    const key = spenderKey(spender);
    const day = Math.floor(this.now() / DAY_MS);
    const cached = this.spent.get(key);
    if (cached?.day === day) return { tokens: cached.tokens, dollars: cached.dollars };
    const spent = await this.ledger.spentSince(spender, day * DAY_MS);
    if (this.spent.size >= SPENDERS_KEPT && !this.spent.has(key)) this.spent.clear();
    this.spent.set(key, { day, ...spent });
    return spent;
  }

  async record(call: CallCost): Promise<void> {
    // Counted before the row is written, so a check made meanwhile (a tool run right after the
    // call that spent the budget) already sees it.
    const day = Math.floor(this.now() / DAY_MS);
    const spenders: Spender[] = [{ guildId: call.guildId }, ...(call.userId ? [{ userId: call.userId }] : [])];
    for (const spender of spenders) {
      const cached = this.spent.get(spenderKey(spender));
      if (cached?.day !== day) continue;
      cached.tokens += call.inputTokens + call.outputTokens;
      cached.dollars += call.costUsd ?? 0;
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
    spentSince(spender, since) {
      const theirs = calls.filter(
        (c) => (c.at ?? 0) >= since && ('userId' in spender ? c.userId === spender.userId : c.guildId === spender.guildId),
      );
      return Promise.resolve({
        tokens: theirs.reduce((sum, c) => sum + c.inputTokens + c.outputTokens, 0),
        dollars: theirs.reduce((sum, c) => sum + (c.costUsd ?? 0), 0),
      });
    },
  };
}
