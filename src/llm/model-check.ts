import { realTimers } from '../clock.ts';
import type { EditorConfig, LlmConfig } from '../config.ts';
import type { Logger } from '../log.ts';
import { modelInfo, modelStatus } from '../models.ts';
import type { ModelWarnings } from './model-warnings.ts';
import { createProvider, isConfigured, PROVIDER_LABELS } from './providers.ts';
import type { ProviderName } from './types.ts';

export interface ModelCheckOptions {
  readonly log: Logger;
  /** Shared with the games, so a model found gone here is not named again when a seat meets it. */
  readonly warnings: ModelWarnings;
  /** The persona editor's model, checked too when it is not its provider's model. */
  readonly editor?: Pick<EditorConfig, 'provider' | 'model'>;
  /** How long the whole check may take, in ms (default 30 s). */
  readonly deadlineMs?: number;
  /** Ends the check at once (the bot stopping). */
  readonly signal?: AbortSignal;
  /** Today, as an ISO date, for the model table's retirement dates (default the real one). */
  readonly today?: string;
}

/** A model the settings name, with the setting that names it. */
interface ConfiguredModel {
  readonly provider: ProviderName;
  readonly id: string;
  readonly setting: string;
}

const KEY_SETTING = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' } as const;
const DEFAULT_DEADLINE_MS = 30_000;

/**
 * Checks each configured model once, at start-up, in the background: what the model table says of
 * it (deprecated, retired, or not listed), then one tiny call, which proves the key and the model
 * at once. Problems are warnings naming the setting to change; nothing here stops the bot.
 * Providers without a key are not asked.
 */
export async function checkConfiguredModels(llm: LlmConfig, options: ModelCheckOptions): Promise<void> {
  const today = options.today ?? new Date().toISOString().slice(0, 10);
  const deadline = realTimers.now() + (options.deadlineMs ?? DEFAULT_DEADLINE_MS);
  await Promise.all(
    configuredModels(llm, options.editor).map(async (model) => {
      tableSays(model, today, options.log);
      await askOnce(llm, model, deadline, options);
    }),
  );
}

function configuredModels(llm: LlmConfig, editor: ModelCheckOptions['editor']): ConfiguredModel[] {
  const providers = (['openai', 'anthropic'] as const).filter((p) => isConfigured(p, llm));
  const models: ConfiguredModel[] = providers.map((p) => ({
    provider: p,
    id: llm[p].model,
    setting: p === 'openai' ? 'OPENAI_MODEL' : 'ANTHROPIC_MODEL',
  }));
  if (editor && providers.includes(editor.provider) && editor.model !== llm[editor.provider].model) {
    models.push({ provider: editor.provider, id: editor.model, setting: 'EDITOR_MODEL' });
  }
  return models;
}

function tableSays(model: ConfiguredModel, today: string, log: Logger): void {
  const name = `${PROVIDER_LABELS[model.provider]} model ${model.id} (${model.setting})`;
  const info = modelInfo(model.provider, model.id);
  if (info === null) {
    log.info(`${name} is not in the model table (src/models.ts): its calls are recorded without a price`);
    return;
  }
  const status = modelStatus(info, today);
  if (status.kind === 'retired') {
    log.warn(`${name} was retired on ${status.since}: set ${model.setting} to a current model (docs/operators.md, Models)`);
  } else if (status.kind === 'deprecated') {
    const when = status.retires === null ? 'no retirement date yet' : `it retires on ${status.retires}`;
    log.warn(`${name} is deprecated (${when}): set ${model.setting} to a current model before then (docs/operators.md, Models)`);
  }
}

async function askOnce(llm: LlmConfig, model: ConfiguredModel, deadline: number, options: ModelCheckOptions): Promise<void> {
  const { log } = options;
  const name = `${PROVIDER_LABELS[model.provider]} model ${model.id} (${model.setting})`;
  const provider = createProvider(model.provider, llm);
  if (!provider.ok) return;
  const answer = await provider.value.complete({
    model: model.id,
    system: { stable: 'Answer in one word.' },
    messages: [{ role: 'user', content: 'Ready?' }],
    // A few tokens, not one: a model that thinks first may refuse a limit it cannot answer within.
    maxTokens: 16,
    deadline,
    ...(options.signal && { signal: options.signal }),
  });
  if (answer.ok) {
    log.info(`${name} answers`);
    return;
  }
  const { error } = answer;
  switch (error.kind) {
    case 'model_unavailable':
      options.warnings.unavailable(model, model.setting, error.message);
      return;
    case 'auth':
      log.warn(
        `${PROVIDER_LABELS[model.provider]} refused the key when asked for ${model.id}: check ${KEY_SETTING[model.provider]}. ${error.message}`,
      );
      return;
    case 'aborted':
      return;
    default:
      log.warn(`${name} could not be checked (${error.kind}${error.status === undefined ? '' : ` ${error.status}`}): ${error.message}`);
  }
}
