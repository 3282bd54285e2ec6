import type { Voice } from '../../src/agents/decision.ts';
import { personaFromProfile } from '../../src/agents/player/persona-from-profile.ts';
import { plainPersona, type PersonaPrompt } from '../../src/agents/player/persona-prompt.ts';
import { HOUSE_PLAYERS } from '../../src/agents/seats.ts';
import { renderPersona } from '../../src/persona/render.ts';
import { readStarterPack } from '../../src/persona/starter-pack.ts';

export interface DemoPersona {
  readonly name: string;
  readonly voice: Voice;
  readonly prompt: PersonaPrompt;
}

/** Every starter persona, in file order, ready to seat. */
export async function starterPersonas(): Promise<DemoPersona[]> {
  const pack = await readStarterPack();
  if (!pack.ok) throw new Error(pack.error.message);
  return pack.value.map((content) => {
    const rendered = renderPersona(content);
    if (!rendered.ok) throw new Error(`${content.profile.identity.name}: ${rendered.error.message}`);
    const prompt = personaFromProfile(rendered.value);
    return { name: prompt.name, voice: prompt.voice ?? { name: prompt.name, phrases: [] }, prompt };
  });
}

/** A house player's persona: a name and a phrase, no profile. */
export function housePersona(voice: Voice): DemoPersona {
  return { name: voice.name, voice, prompt: plainPersona(voice) };
}

/** The starter personas, in file order, then house players for seats beyond the pack. */
export async function demoPersonas(count: number): Promise<DemoPersona[]> {
  const out = (await starterPersonas()).slice(0, count);
  for (const voice of HOUSE_PLAYERS) {
    if (out.length === count) break;
    if (!out.some((p) => p.name === voice.name)) out.push(housePersona(voice));
  }
  return out;
}
