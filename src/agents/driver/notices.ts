import type { FallbackCategory } from '../../game/index.ts';
import { modelSetting, PROVIDER_LABELS } from '../../llm/providers.ts';
import type { SeatModel } from '../decision.ts';

export const BUDGET_TOPIC = 'budget';
export const BUDGET_NOTICE = "The AI players' token budget for today is spent: they play on with the offline brain.";

export const fallbackTopic = (playerId: string): string => `fallback:${playerId}`;

/**
 * The one line the table reads the first time a seat's model fails it: neutral, short, and free of
 * the provider's own words (which may hold keys, URLs or response bodies; those go to the log).
 */
export function fallbackNotice(name: string, category: Exclude<FallbackCategory, 'budget_spent' | 'restart'>): string {
  switch (category) {
    case 'timeout':
      return `${name}'s model is not answering; ${name} plays on instinct for now.`;
    case 'rate_limited':
      return `${name}'s model is busy (rate limited); ${name} plays on instinct for now.`;
    case 'refused':
      return `${name}'s model declined to answer; ${name} plays on instinct when it does.`;
    case 'invalid_answer':
      return `${name}'s model gave an answer outside the rules; ${name} plays on instinct when it does.`;
    case 'auth_failed':
      return `${name}'s model does not accept the bot's API key; ${name} plays on instinct (the host may want to check the key).`;
    case 'model_unavailable':
      return `${name}'s model is retired or unknown to its provider; ${name} plays on instinct.`;
    case 'provider_error':
      return `${name}'s model service had an error; ${name} plays on instinct for now.`;
  }
}

const MODEL_TOPIC = 'model:';

/**
 * A gone model is told once per game: once per model when the bot's settings or the game chose it,
 * once per seat when its persona did (each persona is edited on its own).
 */
export function modelTopic(playerId: string, model: SeatModel): string {
  return model.source === 'persona' ? `${MODEL_TOPIC}persona:${playerId}` : `${MODEL_TOPIC}${model.source}:${model.provider}:${model.id}`;
}

/** Whether a notice says a model is gone: the host is also told by DM. */
export function isModelNotice(topic: string | undefined): boolean {
  return topic?.startsWith(MODEL_TOPIC) === true;
}

/**
 * What the table reads when a provider no longer serves a seat's model: which model, and the
 * setting that chose it. The id is the setting's own text, never the provider's.
 */
export function modelUnavailableNotice(name: string, model: SeatModel): string {
  const id = `\`${model.id.replaceAll('`', '').slice(0, 100)}\``;
  const provider = PROVIDER_LABELS[model.provider];
  const setting = modelSetting(model.provider, model.source);
  switch (model.source) {
    case 'persona':
      return `${name}'s persona asks for the model ${id}, which ${provider} does not serve (retired or unknown); ${name} plays on instinct. To fix it, change ${setting}.`;
    case 'game':
      return `This game's model ${id} is retired or unknown to ${provider}; the AI players on it play on instinct. To fix it, change ${setting}.`;
    case 'env':
      return `The bot's ${provider} model ${id} is retired or unknown to ${provider}; the AI players on it play on instinct. Whoever runs the bot needs to change ${setting}.`;
  }
}
