import type { RenderedPersona } from '../../persona/render.ts';
import type { PersonaPrompt } from './persona-prompt.ts';

/** A rendered persona as the seat's prompt takes it: the block, its tactics per role, its voice. */
export function personaFromProfile(rendered: RenderedPersona): PersonaPrompt {
  return {
    name: rendered.name,
    block: rendered.block,
    tactics: {
      town: rendered.tactics.town,
      mafia: rendered.tactics.mafia,
      detective: rendered.tactics.detective,
      doctor: rendered.tactics.doctor,
    },
    voice: { name: rendered.name, phrases: rendered.phrases },
  };
}
