import { withRetries } from '../../src/llm/retrying-provider.ts';
import { plainPersona } from '../../src/agents/player/persona-prompt.ts';
import { Seating } from '../../src/agents/seating.ts';
import { HOUSE_PLAYERS } from '../../src/agents/seats.ts';
import { ManualTimers } from '../../src/clock.ts';
import type { LlmConfig } from '../../src/config.ts';
import type { GameState, SettingsInput } from '../../src/game/index.ts';
import { createHeadless } from '../../src/session/headless-game.ts';
import { simulatedModel, type SimulatedModelOptions } from './simulated-model.ts';
import { simulatedPeople } from './simulated-people.ts';

export interface RealtimeGame {
  readonly seed: number;
  readonly aiSeats: number;
  readonly people: number;
  readonly behaviour: SimulatedModelOptions['behaviour'];
  readonly random: () => number;
  readonly settings?: SettingsInput;
  /** LLM_TIMEOUT_MS: the longest one attempt may take (default as in the bot, 60 s). */
  readonly attemptTimeoutMs?: number;
}

const T0 = Date.UTC(2026, 0, 1);

/** The bot's own configuration for one OpenAI-compatible model (the simulated one stands in for its client). */
function simulatedLlmConfig(timeoutMs: number): LlmConfig {
  return {
    provider: 'openai',
    openai: { apiKey: 'simulated', baseURL: undefined, model: 'simulated' },
    anthropic: { apiKey: undefined, baseURL: undefined, model: 'unused' },
    timeoutMs,
    maxToolRounds: 4,
    dailyTokenBudget: 0,
  };
}

/**
 * One game of AI seats and simulated people in real time, played on a manual clock: the bot's
 * session and AI driver, the seats' real LLM brains and retry policy, and a simulated model whose
 * latency, hangs and 429s are on the same clock. A 90-second vote takes milliseconds.
 */
export async function playRealtime(options: RealtimeGame): Promise<GameState> {
  const clock = new ManualTimers(T0);
  const model = simulatedModel({ clock, behaviour: options.behaviour });
  const env = simulatedLlmConfig(options.attemptTimeoutMs ?? 60_000);
  const provider = withRetries(model, { clock, attemptTimeoutMs: env.timeoutMs, random: options.random });
  const gameId = `realtime-${options.seed}`;
  const seating = new Seating(env, { guildId: null, gameId }, { clock, providers: () => provider });
  const voices = HOUSE_PLAYERS.slice(0, options.aiSeats + options.people);
  const seats = voices
    .slice(0, options.aiSeats)
    .map((voice, i) => seating.seat({ id: `ai${i + 1}`, name: voice.name }, plainPersona(voice)));
  const humans = voices.slice(options.aiSeats).map((voice, i) => ({ id: `person${i + 1}`, name: voice.name }));
  const people = simulatedPeople(
    humans.map((h) => h.id),
    options.random,
  );
  const summarizer = seating.summarizer();
  const game = createHeadless({
    gameId,
    seed: options.seed,
    seats,
    humans,
    clock,
    time: 'virtual',
    ...(options.settings && { settings: options.settings }),
    ...(summarizer && { summarizer }),
    onEvents: (events, state) => people.onEvents(events, state),
  });
  if (!game.ok) throw new Error(game.error);
  people.attach(game.value);
  const result = await game.value.run();
  if (!result.ok) throw new Error(result.error);
  return result.value;
}
