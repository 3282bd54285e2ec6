import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../src/config.ts';
import type { Logger } from '../../src/log.ts';
import { checkConfiguredModels } from '../../src/llm/model-check.ts';
import { ModelWarnings } from '../../src/llm/model-warnings.ts';
import { startFakeAnthropic } from '../../scripts/fakes/llm/fake-anthropic.ts';
import { reply, type FakeLlmServer } from '../../scripts/fakes/llm/fake-llm-server.ts';
import { startFakeOpenAi } from '../../scripts/fakes/llm/fake-openai.ts';

const fakes: FakeLlmServer[] = [];
afterEach(async () => {
  for (const fake of fakes.splice(0)) await fake.close();
});

async function openAi(script: Parameters<typeof startFakeOpenAi>[0]): Promise<FakeLlmServer> {
  const fake = await startFakeOpenAi(script);
  fakes.push(fake);
  return fake;
}

async function anthropic(script: Parameters<typeof startFakeAnthropic>[0]): Promise<FakeLlmServer> {
  const fake = await startFakeAnthropic(script);
  fakes.push(fake);
  return fake;
}

function configOf(env: Record<string, string>): Config {
  const loaded = loadConfig(env);
  if (!loaded.ok) throw new Error(loaded.error);
  return loaded.value;
}

function capture(): Logger & { readonly lines: string[] } {
  const lines: string[] = [];
  const at = (level: string) => (message: string) => void lines.push(`[${level}] ${message}`);
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

describe('checking the configured models at start-up', () => {
  it('GIVEN OpenAI no longer serves its model and Anthropic refuses the key for a deprecated model WHEN checked THEN each is one tiny call and a warning naming the setting to change', async () => {
    const gpt = await openAi([reply.status(404, 'The model `gpt-gone` does not exist or you do not have access to it.')]);
    const claude = await anthropic([reply.status(401, 'invalid x-api-key')]);
    const config = configOf({
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: gpt.baseURL,
      OPENAI_MODEL: 'gpt-gone',
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: claude.baseURL,
      ANTHROPIC_MODEL: 'claude-sonnet-4-5',
    });
    const log = capture();

    await checkConfiguredModels(config.llm, { log, warnings: new ModelWarnings(log), today: '2026-11-26' });

    // A custom base URL gets the limit as max_tokens (docs/operators.md, Choosing models and providers).
    expect(gpt.requests.map((r) => [r.model, r.body['max_tokens']])).toEqual([['gpt-gone', 16]]);
    expect(claude.requests.map((r) => [r.model, r.body['max_tokens']])).toEqual([['claude-sonnet-4-5', 16]]);
    const warnings = log.lines.filter((l) => l.startsWith('[warn]'));
    expect(warnings).toHaveLength(3);
    expect(warnings).toContainEqual(
      expect.stringMatching(
        /^\[warn\] OpenAI does not serve the model gpt-gone \(retired or unknown\): .* Change OPENAI_MODEL to a current model/,
      ),
    );
    expect(warnings).toContainEqual(
      expect.stringMatching(/^\[warn\] Anthropic refused the key when asked for claude-sonnet-4-5: check ANTHROPIC_API_KEY/),
    );
    expect(warnings).toContainEqual(
      '[warn] Anthropic model claude-sonnet-4-5 (ANTHROPIC_MODEL) is deprecated (it retires on 2026-11-30): set ANTHROPIC_MODEL to a current model before then (docs/operators.md, Models)',
    );
  });

  it('GIVEN the table says a model is past its retirement date WHEN checked THEN the warning says when it was retired', async () => {
    const claude = await anthropic([reply.text('Ready.')]);
    const config = configOf({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: claude.baseURL, ANTHROPIC_MODEL: 'claude-sonnet-4-5' });
    const log = capture();

    await checkConfiguredModels(config.llm, { log, warnings: new ModelWarnings(log), today: '2026-12-01' });

    expect(log.lines).toContain(
      '[warn] Anthropic model claude-sonnet-4-5 (ANTHROPIC_MODEL) was retired on 2026-11-30: set ANTHROPIC_MODEL to a current model (docs/operators.md, Models)',
    );
  });

  it('GIVEN current models that answer, and an editor model of its own WHEN checked THEN each is asked once, nothing is warned, and a model the table lacks is said to have no price', async () => {
    const gpt = await openAi(() => reply.text('Ready.'));
    const claude = await anthropic(() => reply.text('Ready.'));
    const config = configOf({
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: gpt.baseURL,
      ANTHROPIC_API_KEY: 'k',
      ANTHROPIC_BASE_URL: claude.baseURL,
      EDITOR_MODEL: 'claude-house-editor',
    });
    const log = capture();

    await checkConfiguredModels(config.llm, { log, warnings: new ModelWarnings(log), editor: config.editor, today: '2026-11-26' });

    expect(gpt.requests.map((r) => r.model)).toEqual(['gpt-6-luna']);
    expect(claude.requests.map((r) => r.model).sort()).toEqual(['claude-house-editor', 'claude-sonnet-5-5']);
    expect(log.lines.filter((l) => l.startsWith('[warn]'))).toEqual([]);
    expect(log.lines).toContain('[info] OpenAI model gpt-6-luna (OPENAI_MODEL) answers');
    expect(log.lines).toContain(
      '[info] Anthropic model claude-house-editor (EDITOR_MODEL) is not in the model table (src/models.ts): its calls are recorded without a price',
    );
  });

  it('GIVEN a model that never answers WHEN the check’s deadline passes THEN it ends with a warning that the model could not be checked', async () => {
    const gpt = await openAi(() => reply.hang());
    const config = configOf({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: gpt.baseURL });
    const log = capture();

    await checkConfiguredModels(config.llm, { log, warnings: new ModelWarnings(log), deadlineMs: 1_500, today: '2026-11-26' });

    expect(log.lines).toContainEqual(
      expect.stringMatching(/^\[warn\] OpenAI model gpt-6-luna \(OPENAI_MODEL\) could not be checked \(timeout\)/),
    );
  });

  it('GIVEN no provider is configured WHEN checked THEN nothing is asked and nothing is said', async () => {
    const log = capture();

    await checkConfiguredModels(configOf({}).llm, { log, warnings: new ModelWarnings(log) });

    expect(log.lines).toEqual([]);
  });

  it('GIVEN the check found a model gone WHEN a seat then meets it THEN the log does not name it again', async () => {
    const gpt = await openAi([reply.status(404, 'no such model')]);
    const config = configOf({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: gpt.baseURL, OPENAI_MODEL: 'gpt-gone' });
    const log = capture();
    const warnings = new ModelWarnings(log);
    await checkConfiguredModels(config.llm, { log, warnings, today: '2026-11-26' });

    warnings.unavailable({ provider: 'openai', id: 'gpt-gone' }, 'OPENAI_MODEL', 'no such model');

    expect(log.lines.filter((l) => l.includes('does not serve the model gpt-gone'))).toHaveLength(1);
  });
});
