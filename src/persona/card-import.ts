import { z } from 'zod';
import { err, ok, type Result } from '../result.ts';
import type { CardExtras } from './card-extras.ts';
import { cardJsonFromPng, isPng } from './card-png.ts';
import { cardV2Schema, cardV3Schema, type CardData } from './card-schema.ts';
import type { Part } from './composition.ts';
import { describeIssues, personaError, type PersonaError } from './errors.ts';
import { GENERIC_TACTICS, genericApproach, genericVoice } from './generic-profile.ts';
import { FILE_LIMITS, kib } from './limits.ts';
import { personaContentSchema, PERSONA_LIMITS, type PersonaContent } from './persona.ts';
import { PERSONA_FORMAT_VERSION } from './persona-json.ts';
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
  } else {
    text = Buffer.from(file).toString('utf8');
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return err(personaError('malformed', `The card is not valid JSON: ${error instanceof Error ? error.message : String(error)}.`));
  }
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
  const parsed = (spec === 'chara_card_v2' ? cardV2Schema : cardV3Schema).safeParse(raw);
  if (!parsed.success) return err(personaError('invalid', `The card is invalid: ${describeIssues(parsed.error)}.`));
  return ok({ spec, data: parsed.data.data });
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
  const extras = extrasOf(data, extensions);
  const exported = dramatisExtensionSchema.safeParse(ours);
  if (exported.success) return ok({ spec, persona: { ...exported.data.persona, card: extras }, warnings: [] });

  const name = clip(data.name, PROFILE_LIMITS.name.max);
  const warnings: string[] = [];
  let style: Pick<Profile, 'playStyle' | 'tactics'> = {
    playStyle: { voice: genericVoice(name, data.personality), approach: genericApproach(name), signaturePhrases: [], signatureMoves: [] },
    tactics: GENERIC_TACTICS,
  };
  if (options.profiler !== undefined) {
    const built = await options.profiler(name, cardText(data));
    if (built.ok) style = { playStyle: built.value.playStyle, tactics: built.value.tactics };
    else warnings.push(`The profiler could not write tactics (${built.error.message}); generic ones are used.`);
  } else {
    warnings.push(options.noProfilerWarning ?? NO_MODEL_WARNING);
  }
  const persona: PersonaContent = {
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
  const fitted = fitLength(persona);
  const checked = personaContentSchema.safeParse(fitted);
  if (!checked.success) return err(personaError('invalid', `The card does not make a valid persona: ${describeIssues(checked.error)}.`));
  return ok({ spec, persona: checked.data, warnings });
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
  const two = clip(sentences.slice(0, 2).join(' '), PROFILE_LIMITS.background.maxChars);
  return two === '' ? `${name}, a character from a character card.` : two;
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

/** Part names allow fewer characters than card names. */
function partName(name: string, what: string): string {
  const safe =
    name
      .replace(/[^\p{L}\p{N} _.'’-]/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim() || 'card';
  return `${clip(safe, 40).replace(/…$/, '')} ${what}`;
}

function partsOf(name: string, data: CardData): Part[] {
  const part = (type: Part['type'], what: string, text: string, summary: string): Part[] => {
    const content = clip(expand(text, name), 1500);
    return content === '' ? [] : [{ name: partName(name, what), type, summary: clip(summary, 300), content }];
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

/** Long cards are cut until the detail rendering fits; the card itself is kept whole for export. */
function fitLength(persona: PersonaContent): PersonaContent {
  let current = persona;
  for (let i = 0; i < 8 && !renderPersona(current, { detail: true }).ok; i++) {
    current = {
      ...current,
      parts: current.parts.map((p) => ({ ...p, content: clip(p.content, Math.max(100, Math.floor(p.content.length * 0.7))) })),
    };
  }
  return current;
}
