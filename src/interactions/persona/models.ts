import type { LlmConfig } from '../../config.ts';
import { createProvider } from '../../llm/providers.ts';
import type { LlmProvider } from '../../llm/types.ts';

export interface PersonaModel {
  readonly provider: LlmProvider;
  readonly model: string;
}

/** The configured model for the profiler and persona tests; null when the bot runs offline. */
export interface PersonaModels {
  current(): PersonaModel | null;
}

/** One provider client for the bot's lifetime, made on first use. */
export function personaModels(config: LlmConfig): PersonaModels {
  let made: PersonaModel | null | undefined;
  return {
    current() {
      if (made !== undefined) return made;
      if (config.provider === 'offline') return (made = null);
      const provider = createProvider(config.provider, config);
      // The configuration schema refuses a chosen provider without its key, so this is a bug.
      if (!provider.ok) throw new Error(provider.error);
      return (made = { provider: provider.value, model: config[config.provider].model });
    },
  };
}
