import type { TacticsRole } from '../../persona/profile.ts';
import type { RenderedPersona } from '../../persona/render.ts';
import { err, ok, type Result } from '../../result.ts';
import type { LlmProvider } from '../../llm/types.ts';
import { modelErrorDetail, plainModelError } from '../../llm/plain-error.ts';
import { meteredProvider, type MeterOptions } from '../metered-provider.ts';
import { personaFromProfile } from '../player/persona-from-profile.ts';
import type { PersonaPrompt } from '../player/persona-prompt.ts';
import { GROUND_RULES } from '../player/prompt.ts';
import type { TestInputContent } from '../../db/editor-turns.ts';

const ROLE_NAMES: Record<TacticsRole, string> = { town: 'Town', mafia: 'Mafia', detective: 'Detective', doctor: 'Doctor' };

/** Who a test is for: the server whose budget pays (null in DMs), the person who asked (their budget pays too) and the persona tested. */
interface TestSite {
  readonly guildId: string | null;
  readonly userId: string;
  readonly personaId: string;
}

/** How a persona answers a test input: in character, as it would at the table. */
export interface PersonaTester {
  answer(persona: RenderedPersona, input: TestInputContent, site: TestSite, signal?: AbortSignal): Promise<Result<string, string>>;
}

export interface PersonaTesterOptions {
  /** Checked before every test call and charged for it (purpose `editor_test`); absent: unmetered. */
  readonly budget?: MeterOptions['budget'];
  readonly onRecordError?: (error: unknown) => void;
  /** The provider's own words when a test call fails (the owner reads a plain sentence instead). */
  readonly onCallError?: (detail: string) => void;
}

/**
 * The system prompt of a test: the player agent's persona block and own tactics for the role,
 * under the same ground rules a seat plays by, so a test shows what a game would.
 */
function testPrompt(persona: PersonaPrompt, role: TacticsRole): string {
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

/**
 * A tester on the game's provider; with none configured it says so in an offline answer instead
 * of failing. Past a budget that pays (the server's or the DMs', or the owner's) it refuses, so the editor model can tell the owner.
 */
export function createPersonaTester(
  llm: { readonly provider: LlmProvider; readonly model: string } | null,
  options: PersonaTesterOptions = {},
): PersonaTester {
  const { budget, onRecordError, onCallError } = options;
  return {
    async answer(rendered, input, site, signal) {
      const persona = personaFromProfile(rendered);
      if (llm === null) return ok(offlineAnswer(persona));
      const provider = budget
        ? meteredProvider(llm.provider, {
            budget,
            site: { ...site, purpose: 'editor_test' },
            ...(onRecordError && { onRecordError }),
          })
        : llm.provider;
      const result = await provider.complete({
        model: llm.model,
        system: { stable: testPrompt(persona, input.role) },
        messages: [{ role: 'user', content: input.content }],
        maxTokens: 400,
        // As a seat would answer: no thinking first where the model allows it.
        thinking: false,
        effort: 'low',
        ...(signal && { signal }),
      });
      if (!result.ok && result.error.kind === 'budget')
        return err(`${result.error.message} The test was not run; nothing was sent to the model.`);
      // The editor's model relays this to the owner: the plain sentence, never the provider's words.
      if (!result.ok) {
        onCallError?.(modelErrorDetail(result.error));
        return err(`the test call failed: ${plainModelError(result.error)}`);
      }
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
