import type { TacticsRole } from '../../persona/profile.ts';
import type { RenderedPersona } from '../../persona/render.ts';
import { err, ok, type Result } from '../../result.ts';
import type { LlmProvider } from '../llm/types.ts';
import { personaFromProfile } from '../player/persona-from-profile.ts';
import type { PersonaPrompt } from '../player/persona-prompt.ts';
import { GROUND_RULES } from '../player/prompt.ts';
import type { TestInputContent } from './turns.ts';

const ROLE_NAMES: Record<TacticsRole, string> = { town: 'Town', mafia: 'Mafia', detective: 'Detective', doctor: 'Doctor' };

/** How a persona answers a test input: in character, as it would at the table. */
export interface PersonaTester {
  answer(persona: RenderedPersona, input: TestInputContent, signal?: AbortSignal): Promise<Result<string, string>>;
}

/**
 * The system prompt of a test: the player agent's persona block and own tactics for the role,
 * under the same ground rules a seat plays by, so a test shows what a game would.
 */
export function testPrompt(persona: PersonaPrompt, role: TacticsRole): string {
  const tactics = persona.tactics?.[role] ?? [];
  return [
    `You are playing Mafia on Dramatis as ${persona.name}. This is a rehearsal: one moment of a game, to hear how you sound.`,
    '',
    '# Your persona',
    persona.block,
    '',
    `# Your role: ${ROLE_NAMES[role]}`,
    ...(tactics.length > 0 ? ['Your own tactics in this role:', ...tactics.map((t) => `- ${t}`)] : []),
    '',
    '# Ground rules',
    ...GROUND_RULES.map((rule) => `- ${rule}`),
    '',
    'The user message is what just happened at the table. Answer with what you say out loud, in character.',
  ].join('\n');
}

/** A tester on the game's provider; with none configured it says so in an offline answer instead of failing. */
export function createPersonaTester(llm: { readonly provider: LlmProvider; readonly model: string } | null): PersonaTester {
  return {
    async answer(rendered, input, signal) {
      const persona = personaFromProfile(rendered);
      if (llm === null) return ok(offlineAnswer(persona));
      const result = await llm.provider.complete({
        model: llm.model,
        system: { stable: testPrompt(persona, input.role) },
        messages: [{ role: 'user', content: input.content }],
        maxTokens: 400,
        ...(signal && { signal }),
      });
      if (!result.ok) return err(`the test call failed (${result.error.kind}): ${result.error.message}`);
      return ok(result.value.text.trim() || '(the persona said nothing)');
    },
  };
}

function offlineAnswer(persona: PersonaPrompt): string {
  const phrase = persona.voice?.phrases[0];
  return (
    `(offline: no model is configured for games, so this is not a real answer) ${persona.name} would speak now` +
    `${phrase ? `, perhaps with “${phrase}”` : ''}. Configure LLM_PROVIDER with an API key to hear the persona for real.`
  );
}
