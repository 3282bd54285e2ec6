import { realTimers, type Timers } from '../clock.ts';
import type { LlmConfig } from '../config.ts';
import { callCost, type TokenBudget } from './budget.ts';
import type { Voice } from './decision.ts';
import { heuristicBrain } from './heuristic/brain.ts';
import { createProvider, resolveModel, type ModelPreference, type ModelSource } from '../llm/providers.ts';
import { metered, type CallRecord } from '../llm/metered.ts';
import type { LlmProvider, LlmRequest, ProviderName } from '../llm/types.ts';
import type { PlayerView } from '../game/index.ts';
import { llmBrain } from './player/llm-brain.ts';
import type { PersonaPrompt } from './player/persona-prompt.ts';
import { llmSummarizer } from './player/summarizer.ts';
import { seatThinker } from './player/think.ts';
import type { AiSeat } from './ai-seats.ts';
import type { Summarizer } from './summary.ts';

/** Where a call's cost goes: the seat (or the summary) and game it was made for. */
interface CallSite {
  readonly guildId: string | null;
  readonly gameId: string | null;
  readonly playerId: string | null;
  readonly purpose: 'decision' | 'summary';
}

export type CostSink = (site: CallSite, record: CallRecord) => void;

export interface SeatingOptions {
  readonly budget?: TokenBudget;
  readonly cost?: CostSink;
  /** The game's clock: model calls are retried and timed out on it. Default the real one. */
  readonly clock?: Timers;
  /** The provider clients (default: from the configuration, retried on `clock`); the bench injects its own. */
  readonly providers?: (name: ProviderName) => LlmProvider | null;
  /** Every decision request a seat sends, with the view it was built from (the bench audits what seats are told). */
  readonly onPrompt?: (playerId: string, request: LlmRequest, view: PlayerView) => void;
}

/** Builds AI seats for one game: a model where one is configured and affordable, else the offline brain. */
export class Seating {
  private readonly providers = new Map<ProviderName, LlmProvider | null>();

  constructor(
    private readonly env: LlmConfig,
    private readonly game: { readonly guildId: string | null; readonly gameId: string; readonly preference?: ModelPreference },
    private readonly options: SeatingOptions = {},
  ) {}

  private provider(name: ProviderName): LlmProvider | null {
    if (!this.providers.has(name)) {
      const injected = this.options.providers;
      if (injected) this.providers.set(name, injected(name));
      else {
        const created = createProvider(name, this.env, { clock: this.options.clock ?? realTimers });
        this.providers.set(name, created.ok ? created.value : null);
      }
    }
    return this.providers.get(name) ?? null;
  }

  /** The provider as one site's calls go through it: each call's record to the cost sink. */
  private metered(provider: LlmProvider, site: CallSite): LlmProvider {
    const cost = this.options.cost;
    return cost ? metered(provider, { record: (call) => cost(site, call) }) : provider;
  }

  /** The seat: its brain (the persona's model, or the offline brain) and the offline brain that stands in for a late model. */
  seat(player: { readonly id: string; readonly name: string }, persona: PersonaPrompt & { readonly preference?: ModelPreference }): AiSeat {
    const voice: Voice = persona.voice ?? { name: persona.name, phrases: [] };
    const offline = heuristicBrain(voice);
    const choice = resolveModel({ persona: persona.preference, game: this.game.preference, env: this.env });
    const provider = choice.provider === 'offline' ? null : this.provider(choice.provider);
    const notice = choice.refused && {
      topic: `model-refused:${player.id}`,
      text: refusedModelNotice(player.name, choice.refused, choice.model),
    };
    if (!provider) return { id: player.id, name: player.name, brain: offline, offline, ...(notice && { notice }) };
    const site: CallSite = { guildId: this.game.guildId, gameId: this.game.gameId, playerId: player.id, purpose: 'decision' };
    const think = seatThinker({ provider: this.metered(provider, site), maxToolRounds: this.env.maxToolRounds });
    const onPrompt = this.options.onPrompt;
    const brain = llmBrain({
      persona,
      model: choice.model,
      chosen: { provider: provider.name, source: choice.source },
      think: onPrompt
        ? (request, context) => {
            onPrompt(player.id, request, context.view);
            return think(request, context);
          }
        : think,
      fallback: offline,
      allow: () => this.options.budget?.allows(this.game.guildId) ?? true,
    });
    return { id: player.id, name: player.name, brain, offline, ...(notice && { notice }) };
  }

  /** The day recap writer: the game's model when one is configured, else none (the offline recap). */
  summarizer(): Summarizer | undefined {
    const choice = resolveModel({ game: this.game.preference, env: this.env });
    if (choice.provider === 'offline') return undefined;
    const provider = this.provider(choice.provider);
    if (!provider) return undefined;
    const site: CallSite = { guildId: this.game.guildId, gameId: this.game.gameId, playerId: null, purpose: 'summary' };
    const summarize = llmSummarizer({ provider: this.metered(provider, site), model: choice.model });
    const budget = this.options.budget;
    return async (record, timing) => {
      if (budget && !(await budget.allows(this.game.guildId))) throw new Error('budget spent');
      return summarize(record, timing);
    };
  }
}

/** The table's one line when a seat's persona or game names a model the operator does not allow. */
function refusedModelNotice(name: string, refused: { readonly model: string; readonly source: ModelSource }, instead: string): string {
  const who = refused.source === 'game' ? "This game's model option" : `${name}'s persona`;
  return `${who} names the model ${refused.model}, which this bot does not allow (ALLOWED_MODELS): ${name} plays on ${instead} instead.`;
}

/**
 * Sends every call's cost to the budget's ledger (the LlmCall table in the bot), in order;
 * `flush` waits for the writes, e.g. before a report or a test assertion.
 */
export function budgetSink(
  budget: TokenBudget,
  onError: (error: unknown) => void = () => undefined,
): { sink: CostSink; flush(): Promise<void> } {
  let chain: Promise<void> = Promise.resolve();
  return {
    sink: (site, record) => {
      const call = callCost(site, record);
      chain = chain.then(() => budget.record(call)).catch(onError);
    },
    flush: () => chain,
  };
}
