import type { LlmConfig } from '../config.ts';
import { callCost, type TokenBudget } from './budget.ts';
import type { AsyncBrain, Voice } from './decision.ts';
import { heuristicBrain } from './heuristic/brain.ts';
import { createProvider, resolveModel, type ModelPreference } from './llm/providers.ts';
import type { CallRecord } from './llm/tool-loop.ts';
import type { LlmProvider, ProviderName } from './llm/types.ts';
import { llmBrain } from './player/llm-brain.ts';
import type { PersonaPrompt } from './player/persona-prompt.ts';
import { llmSummarizer } from './player/summarizer.ts';
import { seatThinker } from './player/think.ts';
import type { Summarizer } from './summary.ts';

/** Where a call's cost goes: the seat (or the summary) and game it was made for. */
export interface CallSite {
  readonly guildId: string | null;
  readonly gameId: string | null;
  readonly playerId: string | null;
  readonly purpose: 'decision' | 'summary';
}

export type CostSink = (site: CallSite, record: CallRecord) => void;

/** Builds AI seats for one game: a model where one is configured and affordable, else the offline brain. */
export class Seating {
  private readonly providers = new Map<ProviderName, LlmProvider>();

  constructor(
    private readonly env: LlmConfig,
    private readonly game: { readonly guildId: string | null; readonly gameId: string; readonly preference?: ModelPreference },
    private readonly budget?: TokenBudget,
    private readonly cost?: CostSink,
  ) {}

  private provider(name: ProviderName): LlmProvider | null {
    let provider = this.providers.get(name);
    if (!provider) {
      const created = createProvider(name, this.env);
      if (!created.ok) return null;
      provider = created.value;
      this.providers.set(name, provider);
    }
    return provider;
  }

  /** The seat's brain; `persona` may name its own provider and model. */
  brainFor(playerId: string, persona: PersonaPrompt & { readonly preference?: ModelPreference }): AsyncBrain {
    const voice: Voice = persona.voice ?? { name: persona.name, phrases: [] };
    const offline = heuristicBrain(voice);
    const choice = resolveModel({ persona: persona.preference, game: this.game.preference, env: this.env });
    if (choice.provider === 'offline') return offline;
    const provider = this.provider(choice.provider);
    if (!provider) return offline;
    const site: CallSite = { guildId: this.game.guildId, gameId: this.game.gameId, playerId, purpose: 'decision' };
    return llmBrain({
      persona,
      model: choice.model,
      think: seatThinker({ provider, maxToolRounds: this.env.maxToolRounds, onCall: (r) => this.cost?.(site, r) }),
      fallback: offline,
      allow: () => this.budget?.allows(this.game.guildId) ?? true,
    });
  }

  /** The day recap writer: the game's model when one is configured, else none (the offline recap). */
  summarizer(): Summarizer | undefined {
    const choice = resolveModel({ game: this.game.preference, env: this.env });
    if (choice.provider === 'offline') return undefined;
    const provider = this.provider(choice.provider);
    if (!provider) return undefined;
    const site: CallSite = { guildId: this.game.guildId, gameId: this.game.gameId, playerId: null, purpose: 'summary' };
    const summarize = llmSummarizer({ provider, model: choice.model, onCall: (r) => this.cost?.(site, r) });
    return async (record) => {
      if (this.budget && !(await this.budget.allows(this.game.guildId))) throw new Error('budget spent');
      return summarize(record);
    };
  }
}

/**
 * Sends every call's cost to the budget's ledger (the LlmCall table in the bot), in order;
 * `flush` waits for the writes, e.g. before a report or a test assertion.
 */
export function budgetSink(budget: TokenBudget, onError: (error: unknown) => void = () => undefined): { sink: CostSink; flush(): Promise<void> } {
  let chain: Promise<void> = Promise.resolve();
  return {
    sink: (site, record) => {
      const call = callCost(site, record);
      chain = chain.then(() => budget.record(call)).catch(onError);
    },
    flush: () => chain,
  };
}
