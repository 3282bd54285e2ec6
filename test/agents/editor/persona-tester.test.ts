import { describe, expect, it } from 'vitest';
import { createPersonaTester } from '../../../src/agents/editor/persona-tester.ts';
import type { LlmProvider } from '../../../src/llm/types.ts';
import { renderPersona } from '../../../src/persona/render.ts';
import { err } from '../../../src/result.ts';
import { content } from '../../persona/fixtures.ts';

/** A provider that turns down the bot's key in its own words, as OpenAI does. */
const refusing: LlmProvider = {
  name: 'openai',
  complete: () => Promise.resolve(err({ kind: 'auth', status: 401, message: 'Incorrect API key provided: sk-live-4f9x.' })),
  stream() {
    throw new Error('the tester does not stream');
  },
};

describe('the editor’s persona tester', () => {
  it('GIVEN a model that refuses the key WHEN the editor runs a test THEN the owner’s transcript gets a plain sentence, and the provider’s words go to the log only', async () => {
    const logged: string[] = [];
    const tester = createPersonaTester({ provider: refusing, model: 'game-model' }, { onCallError: (detail) => logged.push(detail) });
    const rendered = renderPersona(content());
    if (!rendered.ok) throw new Error(rendered.error.message);

    const answered = await tester.answer(
      rendered.value,
      { role: 'town', content: 'Bob accuses you.' },
      { guildId: null, userId: 'u1', personaId: 'p1' },
    );

    expect(answered).toEqual({
      ok: false,
      error: "the test call failed: The model service does not accept the bot's API key; whoever runs the bot needs to check it.",
    });
    expect(logged).toEqual(['auth 401: Incorrect API key provided: sk-live-4f9x.']);
  });
});
