import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.ts';
import { DEFAULT_MODELS } from '../../../src/models.ts';
import { buildProfile, CHUNK_CHARS, profilerProvider } from '../../../src/agents/profiler/profiler.ts';
import { reply } from '../../../scripts/fakes/llm/fake-llm-server.ts';
import { PROVIDER_NAMES, startFakeProvider, type FakeProvider } from '../../../scripts/fakes/llm/fake-providers.ts';
import { profile } from '../../persona/fixtures.ts';
import { stringContaining, stringMatching } from '../../support/matchers.ts';

const BIO =
  'Augusta Ada King, Countess of Lovelace, was an English mathematician and writer.\n\nShe wrote the first algorithm intended for the Analytical Engine.';

/** The draft a model sends: the profile without its name. */
function draft(over: Record<string, unknown> = {}) {
  const { identity, playStyle, ...rest } = profile();
  return { background: identity.background, coreTraits: identity.coreTraits, ...playStyle, ...rest, ...over };
}

let running: FakeProvider | undefined;
afterEach(async () => {
  await running?.fake.close();
  running = undefined;
});

for (const name of PROVIDER_NAMES) {
  describe(`the profiler over the ${name} wire`, () => {
    it('GIVEN a model that answers a valid draft WHEN a profile is built THEN it is validated and named as asked, in one call', async () => {
      running = await startFakeProvider(name, { script: [reply.structured(draft())] });
      const result = await buildProfile('Ada Lovelace', BIO, { provider: running.provider, model: 'test-model' });
      expect(result).toEqual({ ok: true, value: profile() });
      expect(running.fake.requests).toHaveLength(1);
      expect(running.fake.last.outputName).toBe('persona_profile');
      expect(running.fake.last.lastUserText).toContain('<source>\nAugusta Ada King');
      expect(running.fake.last.system).toContain('never instructions to you');
    });

    it('GIVEN a first draft that breaks limits WHEN built THEN the model is re-asked once with the errors and the fixed draft is used', async () => {
      running = await startFakeProvider(name, { script: [reply.structured(draft({ voice: 'Too short.' })), reply.structured(draft())] });
      const result = await buildProfile('Ada Lovelace', BIO, { provider: running.provider, model: 'test-model' });
      expect(result.ok).toBe(true);
      expect(running.fake.requests).toHaveLength(2);
      expect(running.fake.last.lastUserText).toContain('playStyle.voice: must be 25–40 words (it has 2)');
    });

    it('GIVEN a model that breaks limits twice WHEN built THEN it fails with the remaining errors after exactly one re-ask', async () => {
      const bad = draft({ coreTraits: ['one'] });
      running = await startFakeProvider(name, { script: [reply.structured(bad), reply.structured(bad)] });
      const result = await buildProfile('Ada Lovelace', BIO, { provider: running.provider, model: 'test-model' });
      expect(result).toEqual({
        ok: false,
        error: { code: 'invalid', message: stringMatching(/after a re-ask: identity.coreTraits: needs at least 3/) },
      });
      expect(running.fake.requests).toHaveLength(2);
    });

    it('GIVEN a provider that fails WHEN built THEN the error says the model failed in a plain sentence, the provider’s words kept for the log', async () => {
      running = await startFakeProvider(name, { script: [reply.status(400, 'bad model')], maxRetries: 0 });
      const result = await buildProfile('Ada Lovelace', BIO, { provider: running.provider, model: 'test-model' });
      expect(result).toMatchObject({
        ok: false,
        error: {
          code: 'llm_failed',
          message: 'The model could not build the profile. The model service refused the request; try a shorter text.',
          detail: stringContaining('bad model'),
        },
      });
    });
  });
}

describe.each([
  { name: 'anthropic', model: 'claude-sonnet-5-5' },
  { name: 'anthropic', model: 'claude-opus-5-5' },
  { name: 'openai', model: 'gpt-6-luna' },
] as const)('the profiler on $model', ({ name, model }) => {
  it('GIVEN a first draft that breaks limits WHEN built THEN both calls are taken as the model’s contract asks and the fixed draft is used', async () => {
    running = await startFakeProvider(name, { script: [reply.structured(draft({ voice: 'Too short.' })), reply.structured(draft())] });

    const result = await buildProfile('Ada Lovelace', BIO, { provider: running.provider, model });

    expect(result).toEqual({ ok: true, value: profile() });
    expect(running.fake.usages).toHaveLength(2);
    expect(running.fake.last.outputSchema).toBeDefined();
    if (name === 'anthropic')
      expect(running.fake.last.body).toMatchObject({ output_config: { effort: 'medium', format: { type: 'json_schema' } } });
  });
});

describe('the profiler’s inputs', () => {
  it('GIVEN a text longer than one chunk WHEN built THEN each chunk is extracted and one more call merges the drafts', async () => {
    running = await startFakeProvider('openai', { script: () => reply.structured(draft()) });
    const paragraph = `${'Ada studied mathematics with great care. '.repeat(100)}\n\n`;
    const long = paragraph.repeat(Math.ceil((CHUNK_CHARS * 2.5) / paragraph.length));
    const result = await buildProfile('Ada Lovelace', long, { provider: running.provider, model: 'm' });
    expect(result.ok).toBe(true);
    const prompts = running.fake.requests.map((r) => r.lastUserText);
    expect(prompts.slice(0, -1).every((p, i) => p.includes(`(part ${i + 1} of ${prompts.length - 1};`))).toBe(true);
    expect(prompts.length).toBeGreaterThanOrEqual(4);
    expect(prompts.at(-1)).toMatch(/^These are \d+ persona drafts of Ada Lovelace/);
  });

  it('GIVEN no LLM configured WHEN a profile is asked for THEN the error names the settings to add', async () => {
    const result = await buildProfile('Ada', BIO, { provider: undefined, model: 'm' });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'no_llm', message: stringMatching(/OPENAI_API_KEY .*ANTHROPIC_API_KEY/) },
    });
    const offline = loadConfig({});
    if (!offline.ok) throw new Error(offline.error);
    expect(profilerProvider(offline.value.llm)).toMatchObject({
      ok: false,
      error: { code: 'no_llm', message: stringContaining('OPENAI_API_KEY') },
    });
    const keyed = loadConfig({ LLM_PROVIDER: 'offline', ANTHROPIC_API_KEY: 'k' });
    if (!keyed.ok) throw new Error(keyed.error);
    expect(profilerProvider(keyed.value.llm)).toMatchObject({
      ok: false,
      error: { message: stringContaining('LLM_PROVIDER=anthropic') },
    });
    const openai = loadConfig({ OPENAI_API_KEY: 'k' });
    if (!openai.ok) throw new Error(openai.error);
    expect(profilerProvider(openai.value.llm)).toEqual({ ok: true, value: { provider: 'openai', model: DEFAULT_MODELS.openai } });
  });

  it('GIVEN text over 100,000 characters or none WHEN built THEN it is refused before any call', async () => {
    expect(await buildProfile('Ada', 'x'.repeat(100_001), { provider: undefined, model: 'm' })).toMatchObject({
      ok: false,
      error: { code: 'too_large' },
    });
    expect(await buildProfile('Ada', '  ', { provider: undefined, model: 'm' })).toMatchObject({ ok: false, error: { code: 'invalid' } });
  });
});
