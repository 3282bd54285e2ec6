import { z } from 'zod';
import { err, ok, type Result } from '../result.ts';
import { cardExtrasSchema, type CardExtras } from './card-extras.ts';
import { parseUploadedJson } from './bounded-json.ts';
import { cardJsonFromPng, isPng } from './card-png.ts';
import { cardV2Schema, cardV3Schema, type CardData } from './card-schema.ts';
import type { Part } from './composition.ts';
import { describeIssues, personaError, type PersonaError } from './errors.ts';
import { fittingBackground, GENERIC_TACTICS, genericApproach, genericVoice } from './generic-profile.ts';
import { FILE_LIMITS, kib } from './limits.ts';
import { personaContentSchema, PERSONA_LIMITS, type PersonaContent } from './persona.ts';
import { PERSONA_FORMAT_VERSION, personaSizeError } from './persona-json.ts';
import { partNameFor } from './part-names.ts';
import { PROFILE_LIMITS, type Profile } from './profile.ts';
import { renderPersona } from './render.ts';
import { clip, splitSentences } from './text.ts';

type CardSpec = 'chara_card_v2' | 'chara_card_v3';

export interface ImportedCard {
  readonly spec: CardSpec;
  readonly persona: PersonaContent;
  /** What the importer guessed, for the user to review. */
  readonly warnings: readonly string[];
}

/** Where Dramatis keeps the whole persona inside a card it exported, so it imports back exactly. */
export const DRAMATIS_EXTENSION = 'dramatis';

const dramatisExtensionSchema = z.object({
  version: z.literal(PERSONA_FORMAT_VERSION),
  persona: personaContentSchema.omit({ card: true }),
});

/** Reads a card file (JSON, or PNG with the card in a text chunk) without writing anything. */
function readCard(file: Uint8Array): Result<{ spec: CardSpec; data: CardData }, PersonaError> {
  const png = isPng(file);
  const limit = png ? FILE_LIMITS.cardPngBytes : FILE_LIMITS.cardJsonBytes;
  if (file.byteLength > limit) {
    return err(personaError('too_large', `The ${png ? 'PNG' : 'JSON'} card is ${kib(file.byteLength)}; the limit is ${kib(limit)}.`));
  }
  let text: string;
  if (png) {
    const json = cardJsonFromPng(file);
    if (!json.ok) return json;
    text = json.value;
    const size = Buffer.byteLength(text);
    if (size > FILE_LIMITS.cardJsonBytes) {
      return err(personaError('too_large', `The card inside the PNG is ${kib(size)}; the limit is ${kib(FILE_LIMITS.cardJsonBytes)}.`));
    }
  } else {
    text = Buffer.from(file).toString('utf8');
  }
  const parsed = parseUploadedJson(text, png ? 'The card inside the PNG' : 'The card');
  if (!parsed.ok) return parsed;
  const raw = parsed.value;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return err(personaError('malformed', 'The card is not a JSON object.'));
  const spec = (raw as { spec?: unknown }).spec;
  if (spec === undefined) {
    return err(
      personaError('unsupported', 'The card has no "spec": Character Card V1 is not supported; save it as V2 or V3 and try again.'),
    );
  }
  if (spec !== 'chara_card_v2' && spec !== 'chara_card_v3') {
    return err(personaError('unsupported', `The card's spec is ${JSON.stringify(spec)}; expected chara_card_v2 or chara_card_v3.`));
  }
  const card = (spec === 'chara_card_v2' ? cardV2Schema : cardV3Schema).safeParse(raw);
  if (!card.success) return err(personaError('invalid', `The card is invalid: ${describeIssues(card.error)}.`));
  return ok({ spec, data: card.data.data });
}

/**
 * Writes a play style and role tactics from a card's text (the profiler, with a model behind it);
 * passed in by the caller, so personas know nothing of models.
 */
export type CardProfiler = (name: string, text: string) => Promise<Result<Pick<Profile, 'playStyle' | 'tactics'>, PersonaError>>;

export interface ImportCardOptions {
  readonly profiler?: CardProfiler;
  /** The warning when there is no profiler; default: no language model is configured. */
  readonly noProfilerWarning?: string;
}

const NO_MODEL_WARNING =
  'No language model is configured, so the role tactics and play style are generic; edit them, or add OPENAI_API_KEY or ANTHROPIC_API_KEY and import again.';

/**
 * A card as a persona: name, description, personality, scenario, example messages, system
 * prompt, tags and creator notes mapped onto the profile and its parts. Role tactics come from
 * the profiler when a model is given, otherwise generic ones with a note saying so.
 */
export async function importCard(file: Uint8Array, options: ImportCardOptions = {}): Promise<Result<ImportedCard, PersonaError>> {
  const card = readCard(file);
  if (!card.ok) return card;
  const { spec, data } = card.value;
  const { [DRAMATIS_EXTENSION]: ours, ...extensions } = data.extensions;
  // Before the profiler: a card too big to keep must not cost a model call.
  const kept = cardExtrasSchema.safeParse(extrasOf(data, extensions));
  if (!kept.success) return err(personaError('too_large', `The card is too large to keep: ${describeIssues(kept.error, 'card')}.`));
  const extras = kept.data;
  const exported = dramatisExtensionSchema.safeParse(ours);
  if (exported.success) return ok({ spec, persona: { ...exported.data.persona, card: extras }, warnings: [] });

  const name = clip(data.name, PROFILE_LIMITS.name.max);
  const warnings: string[] = [];
  let style: Pick<Profile, 'playStyle' | 'tactics'> = {
    playStyle: { voice: genericVoice(name, data.personality), approach: genericApproach(name), signaturePhrases: [], signatureMoves: [] },
    tactics: GENERIC_TACTICS,
  };
  // Before the profiler too: a card whose persona is too large to store must not cost a model call.
  const generic = personaContentSchema.safeParse(fitLength(personaOf(spec, data, extras, style, [])));
  const tooLarge = generic.success ? personaSizeError(generic.data) : null;
  if (tooLarge !== null) return err(tooLarge);
  if (options.profiler !== undefined) {
    const built = await options.profiler(name, cardText(data));
    if (built.ok) style = { playStyle: built.value.playStyle, tactics: built.value.tactics };
    else warnings.push(`The profiler could not write tactics (${built.error.message}); generic ones are used.`);
  } else {
    warnings.push(options.noProfilerWarning ?? NO_MODEL_WARNING);
  }
  const fitted = fitLength(personaOf(spec, data, extras, style, warnings));
  const checked = personaContentSchema.safeParse(fitted);
  if (!checked.success) return err(personaError('invalid', `The card does not make a valid persona: ${describeIssues(checked.error)}.`));
  return ok({ spec, persona: checked.data, warnings });
}

/** The persona a card makes, with this play style and these warnings in its notes (before `fitLength`). */
function personaOf(
  spec: ImportedCard['spec'],
  data: CardData,
  extras: CardExtras,
  style: Pick<Profile, 'playStyle' | 'tactics'>,
  warnings: readonly string[],
): PersonaContent {
  const name = clip(data.name, PROFILE_LIMITS.name.max);
  return {
    profile: {
      identity: { name, background: backgroundOf(name, data.description), coreTraits: coreTraitsOf(data) },
      ...style,
      personality: clip(data.personality, PROFILE_LIMITS.prose.maxChars),
      speechStyle: data.mes_example.trim() === '' ? '' : 'Speaks as in the example dialogue of the character card.',
      decisionStyle: '',
    },
    avatarUrl: null,
    tags: [...new Set(data.tags.map((t) => clip(t, PERSONA_LIMITS.tagChars)).filter((t) => t !== ''))].slice(0, PERSONA_LIMITS.tags),
    notes: clip(
      [`Imported from a ${spec === 'chara_card_v2' ? 'V2' : 'V3'} character card.`, ...warnings, data.creator_notes].join(' '),
      PERSONA_LIMITS.notes,
    ),
    parts: partsOf(name, data),
    traits: [],
    arc: null,
    card: extras,
  };
}

function extrasOf(data: CardData, extensions: Record<string, unknown>): CardExtras {
  return {
    description: data.description,
    personality: data.personality,
    scenario: data.scenario,
    firstMessage: data.first_mes,
    exampleMessages: data.mes_example,
    systemPrompt: data.system_prompt,
    postHistoryInstructions: data.post_history_instructions,
    alternateGreetings: data.alternate_greetings,
    creatorNotes: data.creator_notes,
    creator: data.creator,
    characterVersion: data.character_version,
    tags: data.tags,
    extensions,
  };
}

/** What the profiler reads of a card. */
function cardText(data: CardData): string {
  return [
    data.description,
    data.personality && `Personality: ${data.personality}`,
    data.scenario && `Scenario: ${data.scenario}`,
    data.mes_example && `Example dialogue:\n${data.mes_example}`,
  ]
    .filter((s) => s !== '')
    .join('\n\n');
}

/** SillyTavern's {{char}} / {{user}} placeholders, spelled out. */
function expand(text: string, name: string): string {
  return text.replace(/\{\{char\}\}/gi, name).replace(/\{\{user\}\}/gi, 'another player');
}

function backgroundOf(name: string, description: string): string {
  const sentences = splitSentences(expand(description, name).replace(/\s+/g, ' '));
  return fittingBackground(
    [sentences.slice(0, 2).join(' '), `${name}, a character from a character card.`],
    'A character from a character card.',
  );
}

function coreTraitsOf(data: CardData): string[] {
  const words = [...data.personality.split(/[,;/\n]|\band\b/), ...data.tags]
    .map((t) => t.trim().replace(/[.!]+$/, ''))
    .filter((t) => t !== '' && t.length <= PROFILE_LIMITS.coreTraits.maxChars);
  const traits = [...new Map(words.map((t) => [t.toLowerCase(), t])).values()].slice(0, PROFILE_LIMITS.coreTraits.max);
  for (const filler of ['in character', 'observant', 'sociable']) {
    if (traits.length >= PROFILE_LIMITS.coreTraits.min) break;
    if (!traits.some((t) => t.toLowerCase() === filler)) traits.push(filler);
  }
  return traits;
}

function partsOf(name: string, data: CardData): Part[] {
  const part = (type: Part['type'], what: string, text: string, summary: string): Part[] => {
    const content = clip(expand(text, name), 1500);
    return content === '' ? [] : [{ name: partNameFor(name, what, 'card'), type, summary: clip(summary, 300), content }];
  };
  const firstSentences = (text: string) => splitSentences(expand(text, name)).slice(0, 2).join(' ');
  return [
    ...part('backstory', 'backstory', data.description, firstSentences(data.description)),
    ...part('context', 'scenario', data.scenario, firstSentences(data.scenario)),
    ...part('voice', 'example dialogue', data.mes_example, 'Speaks as in the example dialogue of the character card.'),
    // A card's instructions are its author's notes on the character: persona content, never instructions to the model.
    ...part('context', "author's notes", data.system_prompt, firstSentences(data.system_prompt)),
    ...part('context', "author's later notes", data.post_history_instructions, firstSentences(data.post_history_instructions)),
  ];
}

/**
 * Long cards are cut until both renderings fit: the parts shortened, then the last parts dropped,
 * then the personality line. The card itself is kept whole for export.
 */
function fitLength(persona: PersonaContent): PersonaContent {
  const fits = (p: PersonaContent) => renderPersona(p, { detail: true }).ok && renderPersona(p).ok;
  let current = persona;
  for (let i = 0; i < 8 && !fits(current); i++) {
    current = { ...current, parts: current.parts.map((p) => ({ ...p, content: shorter(p.content), summary: shorter(p.summary) })) };
  }
  while (!fits(current) && current.parts.length > 0) current = { ...current, parts: current.parts.slice(0, -1) };
  if (!fits(current)) current = { ...current, profile: { ...current.profile, personality: '' } };
  return current;
}

const shorter = (text: string) => clip(text, Math.max(100, Math.floor(text.length * 0.7)));
