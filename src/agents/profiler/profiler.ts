import type { LlmConfig } from '../../config.ts';
import { modelErrorDetail, plainModelError } from '../../llm/plain-error.ts';
import { jsonSchemaOf } from '../../llm/tool.ts';
import { isConfigured } from '../../llm/providers.ts';
import type { LlmMessage, LlmProvider, ProviderName, VerbatimTurn } from '../../llm/types.ts';
import { err, ok, type Result } from '../../result.ts';
import { chunkMarkdown } from '../../chunk-markdown.ts';
import { describeIssues, personaError, type PersonaError } from '../../persona/errors.ts';
import { checkBiography } from '../../persona/biography.ts';
import type { CardProfiler } from '../../persona/card-import.ts';
import { profileSchema, type Profile } from '../../persona/profile.ts';
import { extractPrompt, mergePrompt, profileDraftSchema, PROFILER_SYSTEM, reaskPrompt, type ProfileDraft } from './prompt.ts';

/**
 * The model the profiler talks to; `provider` undefined means no LLM is configured. Budgets and
 * cost records are the caller's: it hands in a provider that checks and records its own calls.
 */
export interface ProfilerLlm {
  readonly provider: LlmProvider | undefined;
  readonly model: string;
}

/** Input past this is cut into chunks, each extracted on its own, then merged. */
export const CHUNK_CHARS = 12_000;

const NO_LLM_MESSAGE =
  'Building a profile needs a language model, and none is configured: set OPENAI_API_KEY (or OPENAI_BASE_URL for a local OpenAI-compatible server) or ANTHROPIC_API_KEY.';

/** Which provider the profiler uses under this configuration, or why there is none. */
export function profilerProvider(config: LlmConfig): Result<{ provider: ProviderName; model: string }, PersonaError> {
  if (config.provider !== 'offline') return ok({ provider: config.provider, model: config[config.provider].model });
  const usable = (['openai', 'anthropic'] as const).find((p) => isConfigured(p, config));
  if (usable === undefined) return err(personaError('no_llm', NO_LLM_MESSAGE));
  return err(personaError('no_llm', `LLM_PROVIDER is offline, so no model is used; set LLM_PROVIDER=${usable} to build profiles with it.`));
}

/**
 * A validated profile from raw biographical text (pasted, or an uploaded .txt/.md), through the
 * LLM layer's structured output. A draft that breaks a limit gets one re-ask with the errors.
 */
export async function buildProfile(name: string, rawText: string, llm: ProfilerLlm): Promise<Result<Profile, PersonaError>> {
  const checked = checkBiography(name, rawText);
  if (!checked.ok) return checked;
  const { name: cleanName, text } = checked.value;
  if (llm.provider === undefined) return err(personaError('no_llm', NO_LLM_MESSAGE));
  const model = { ...llm, provider: llm.provider };
  const chunks = chunkMarkdown(text, CHUNK_CHARS);
  if (chunks.length === 1) return finalProfile(model, cleanName, extractPrompt(cleanName, text));
  const drafts: ProfileDraft[] = [];
  for (const [i, chunk] of chunks.entries()) {
    const draft = await ask(model, [{ role: 'user', content: extractPrompt(cleanName, chunk, { index: i + 1, of: chunks.length }) }]);
    if (!draft.ok) return draft;
    drafts.push(draft.value.draft);
  }
  return finalProfile(model, cleanName, mergePrompt(cleanName, drafts));
}

type Model = ProfilerLlm & { readonly provider: LlmProvider };

async function finalProfile(llm: Model, name: string, prompt: string): Promise<Result<Profile, PersonaError>> {
  const messages: LlmMessage[] = [{ role: 'user', content: prompt }];
  const first = await ask(llm, messages);
  if (!first.ok) return first;
  const checked = toProfile(name, first.value.draft);
  if (checked.ok) return checked;
  const verbatim = first.value.verbatim && { verbatim: first.value.verbatim };
  messages.push({ role: 'assistant', content: first.value.raw, ...verbatim }, { role: 'user', content: reaskPrompt(checked.error) });
  const second = await ask(llm, messages);
  if (!second.ok) return second;
  const rechecked = toProfile(name, second.value.draft);
  if (rechecked.ok) return rechecked;
  return err(personaError('invalid', `The model's profile still breaks the limits after a re-ask: ${rechecked.error}.`));
}

function toProfile(name: string, draft: ProfileDraft): Result<Profile, string> {
  const { background, coreTraits, voice, approach, signaturePhrases, signatureMoves, tactics, personality, speechStyle, decisionStyle } =
    draft;
  const parsed = profileSchema.safeParse({
    identity: { name, background, coreTraits },
    playStyle: { voice, approach, signaturePhrases, signatureMoves },
    tactics,
    personality,
    speechStyle,
    decisionStyle,
  });
  return parsed.success ? ok(parsed.data) : err(describeIssues(parsed.error));
}

interface Asked {
  readonly draft: ProfileDraft;
  readonly raw: string;
  /** The answer as the provider sent it, thinking included, for the re-ask to send back. */
  readonly verbatim?: VerbatimTurn;
}

async function ask(llm: Model, messages: readonly LlmMessage[]): Promise<Result<Asked, PersonaError>> {
  const result = await llm.provider.complete({
    model: llm.model,
    system: { stable: PROFILER_SYSTEM },
    messages,
    output: {
      name: 'persona_profile',
      description: 'The persona, every field within its limits.',
      schema: jsonSchemaOf(profileDraftSchema),
    },
    maxTokens: 2000,
    // The profile's fields are the work: no thinking first where the model allows it.
    thinking: false,
    effort: 'medium',
  });
  if (!result.ok)
    return err(
      personaError('llm_failed', `The model could not build the profile. ${plainModelError(result.error)}`, modelErrorDetail(result.error)),
    );
  const answer = result.value.structured ?? parseJson(result.value.text);
  const draft = profileDraftSchema.safeParse(answer);
  if (!draft.success) return err(personaError('llm_failed', `The model's answer was not a profile: ${describeIssues(draft.error)}.`));
  return ok({ draft: draft.data, raw: JSON.stringify(answer), ...(result.value.verbatim && { verbatim: result.value.verbatim }) });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The profiler as card import takes it: the card's play style and tactics from its text. */
export function cardProfiler(llm: ProfilerLlm): CardProfiler {
  return async (name, text) => {
    const built = await buildProfile(name, text, llm);
    return built.ok ? ok({ playStyle: built.value.playStyle, tactics: built.value.tactics }) : built;
  };
}
