import type { FallbackCategory } from '../../game/index.ts';

export const BUDGET_TOPIC = 'budget';
export const BUDGET_NOTICE = "The AI players' token budget for today is spent: they play on with the offline brain.";

export const fallbackTopic = (playerId: string): string => `fallback:${playerId}`;

/**
 * The one line the table reads the first time a seat's model fails it: neutral, short, and free of
 * the provider's own words (which may hold keys, URLs or response bodies; those go to the log).
 */
export function fallbackNotice(name: string, category: Exclude<FallbackCategory, 'budget_spent'>): string {
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
    case 'provider_error':
      return `${name}'s model service had an error; ${name} plays on instinct for now.`;
  }
}
