import type { Voice } from '../decision.ts';

export type TacticsRole = 'town' | 'mafia' | 'detective' | 'doctor';

/** What a seat's persona contributes to its prompt; personas render themselves into this. */
export interface PersonaPrompt {
  readonly name: string;
  /** The persona block of the system prompt: identity, voice, approach. */
  readonly block: string;
  readonly tactics?: Partial<Record<TacticsRole, readonly string[]>>;
  readonly voice?: Voice;
}

/** A plain persona for seats without a profile (house players, tests). */
export function plainPersona(voice: Voice): PersonaPrompt {
  const phrases = voice.phrases.length > 0 ? ` Now and then you say: ${voice.phrases.map((p) => `“${p}”`).join(', ')}.` : '';
  return {
    name: voice.name,
    block: `You are ${voice.name}, a sharp, sociable Mafia player who speaks plainly and briefly.${phrases}`,
    voice,
  };
}
