import type { RenderedPersona } from '../../persona/render.ts';
import { err, ok, type Result } from '../../result.ts';
import type { LlmProvider } from '../../llm/types.ts';
import { meteredProvider, type MeterOptions } from '../metered-provider.ts';
import { answerWithModel } from '../player/answer-situation.ts';
import type { TestInputContent } from '../../db/editor-turns.ts';

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
      if (llm === null) return ok(offlineAnswer(rendered));
      const provider = budget
        ? meteredProvider(llm.provider, {
            budget,
            site: { ...site, purpose: 'editor_test' },
            ...(onRecordError && { onRecordError }),
          })
        : llm.provider;
      const answered = await answerWithModel(
        rendered,
        input.content,
        { provider, model: llm.model },
        { role: input.role, ...(signal && { signal }) },
      );
      if (answered.ok) return answered;
      const failure = answered.error.error;
      if (failure === undefined) return ok('(the persona said nothing)');
      if (failure.kind === 'budget') return err(`${failure.message} The test was not run; nothing was sent to the model.`);
      // The editor's model relays this to the owner: the plain sentence, never the provider's words.
      onCallError?.(answered.error.detail);
      return err(`the test call failed: ${answered.error.said}`);
    },
  };
}

function offlineAnswer(persona: RenderedPersona): string {
  const phrase = persona.phrases[0];
  return (
    `(offline: no model is configured for games, so this is not a real answer) ${persona.name} would speak now` +
    `${phrase ? `, perhaps with “${phrase}”` : ''}. Configure LLM_PROVIDER with an API key to hear the persona for real.`
  );
}
