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

/** The starter personas, in file order, then house players for seats beyond the pack. */
export async function demoPersonas(count: number): Promise<DemoPersona[]> {
  const pack = await readStarterPack();
  if (!pack.ok) throw new Error(pack.error.message);
  const out: DemoPersona[] = [];
  for (const content of pack.value) {
    if (out.length === count) break;
    const rendered = renderPersona(content);
    if (!rendered.ok) throw new Error(`${content.profile.identity.name}: ${rendered.error.message}`);
    const prompt = personaFromProfile(rendered.value);
    out.push({ name: prompt.name, voice: prompt.voice ?? { name: prompt.name, phrases: [] }, prompt });
  }
  for (const voice of HOUSE_PLAYERS) {
    if (out.length === count) break;
    if (!out.some((p) => p.name === voice.name)) out.push({ name: voice.name, voice, prompt: plainPersona(voice) });
  }
  return out;
}
