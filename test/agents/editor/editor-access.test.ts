import { describe, expect, it } from 'vitest';
import type { EditorEvent } from '../../../src/agents/editor/events.ts';
import { createPersonaTester } from '../../../src/agents/editor/persona-tester.ts';
import { loadConfig } from '../../../src/config.ts';
import { DEFAULT_MODELS } from '../../../src/models.ts';
import { createEditorService, editorLlmFromConfig, NO_MODEL_MESSAGE } from '../../../src/agents/editor/service.ts';
import { loadStarterPack } from '../../../src/persona/starter-pack.ts';
import { anyNumber, stringContaining, stringMatching } from '../../support/matchers.ts';
import { alice, bob, editorWorld, must, THREAD } from './editor-world.ts';

describe('who may use the persona editor, and the editor without a model', () => {
  const w = editorWorld();

  it('GIVEN someone other than the owner, a starter persona, or bad text WHEN they use the editor THEN each gets a clear refusal and nothing is saved', async () => {
    expect(await w.editor.open(w.ada.id, bob, THREAD)).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect((await w.send('let me in', bob)).result).toMatchObject({
      ok: false,
      error: { code: 'forbidden', message: stringContaining('<@111>') },
    });
    expect(await w.editor.history(w.session.id, bob)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    await loadStarterPack(w.personas);
    const starter = (await w.personas.list(alice)).find((p) => p.builtIn);
    expect(starter).toBeDefined();
    expect(await w.editor.open(starter!.id, alice, THREAD)).toMatchObject({
      ok: false,
      error: { code: 'read_only', message: stringMatching(/duplicate/) },
    });
    expect((await w.send('   ')).result).toMatchObject({ ok: false, error: { code: 'invalid' } });
    expect((await w.send('x'.repeat(4001))).result).toMatchObject({
      ok: false,
      error: { message: stringContaining('4001 characters') },
    });
    expect(await w.kinds()).toEqual([]);
    expect(w.fake.requests).toHaveLength(0);
  });

  it('GIVEN no model configured WHEN a message is sent THEN the reply says so, the message is kept, and reading and previewing still work', async () => {
    const offline = createEditorService({ personas: w.personas, editor: w.store, tester: createPersonaTester(null), llm: null });
    const events: EditorEvent[] = [];
    const result = await offline.send(w.session.id, alice, 'Make her gruffer', { onEvent: (e) => events.push(e) });
    expect(result).toEqual({ ok: false, error: { code: 'no_model', reason: 'no_model', message: NO_MODEL_MESSAGE } });
    expect(events).toEqual([{ type: 'error', code: 'no_model', message: NO_MODEL_MESSAGE }]);
    expect(await w.store.turns(w.session.id)).toMatchObject([
      { kind: 'user', text: 'Make her gruffer' },
      { kind: 'failed', reason: 'no_model', text: NO_MODEL_MESSAGE },
    ]);
    expect(must(await offline.persona(w.session.id, alice)).id).toBe(w.ada.id);
    expect(must(await offline.preview(w.session.id, alice))).toMatchObject({
      words: anyNumber(),
      text: stringContaining(`You are Ada ${w.n}.`),
    });
  });
});

describe('the editor model from the configuration', () => {
  it('GIVEN the default provider without a key WHEN the editor model is made THEN it says what is missing; with a key it is Anthropic', () => {
    const bare = loadConfig({});
    const keyed = loadConfig({ ANTHROPIC_API_KEY: 'sk-test' });
    if (!bare.ok || !keyed.ok) throw new Error('config did not load');
    expect(editorLlmFromConfig(bare.value)).toEqual({ ok: false, error: 'anthropic needs ANTHROPIC_API_KEY' });
    const llm = editorLlmFromConfig(keyed.value);
    expect(llm.ok && { provider: llm.value.provider.name, model: llm.value.model }).toEqual({
      provider: 'anthropic',
      model: DEFAULT_MODELS.anthropic,
    });
  });
});
