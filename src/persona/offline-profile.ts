import { err, ok, type Result } from '../result.ts';
import { describeIssues, personaError, type PersonaError } from './errors.ts';
import { fittingBackground, GENERIC_TACTICS, genericApproach, genericVoice } from './generic-profile.ts';
import { checkBiography } from './biography.ts';
import { personaContentSchema, type PersonaContent } from './persona.ts';
import { partNameFor } from './part-names.ts';
import { PROFILE_LIMITS } from './profile.ts';
import { renderPersona } from './render.ts';
import { clip, splitSentences } from './text.ts';

/** Trait words looked for in a biography, in the order they are preferred. */
const TRAIT_WORDS = [
  'ambitious',
  'analytical',
  'arrogant',
  'bold',
  'brilliant',
  'calculating',
  'calm',
  'charismatic',
  'charming',
  'clever',
  'cunning',
  'curious',
  'cynical',
  'daring',
  'determined',
  'diplomatic',
  'eccentric',
  'eloquent',
  'fearless',
  'fierce',
  'gentle',
  'honest',
  'humble',
  'impulsive',
  'independent',
  'inventive',
  'loyal',
  'meticulous',
  'methodical',
  'modest',
  'mysterious',
  'observant',
  'patient',
  'persuasive',
  'playful',
  'precise',
  'pragmatic',
  'proud',
  'reckless',
  'ruthless',
  'sarcastic',
  'shrewd',
  'shy',
  'stubborn',
  'suspicious',
  'tenacious',
  'theatrical',
  'vain',
  'witty',
];
const FILLER_TRAITS = ['observant', 'sociable', 'in character'];

export const OFFLINE_PROFILE_NOTE =
  'Built from the biography without a language model: play style and role tactics are generic. Set OPENAI_API_KEY or ANTHROPIC_API_KEY and create it again for a richer profile.';

/**
 * A persona from a name and a biography when no model is configured: the biography's opening
 * for the background, trait words it uses, phrases it quotes as signature phrases, the rest of
 * the play style generic, and the biography itself (cut to fit) as a backstory part.
 */
export function offlinePersona(name: string, rawText: string): Result<PersonaContent, PersonaError> {
  const biography = checkBiography(name, rawText);
  if (!biography.ok) return biography;
  const { name: cleanName, text } = biography.value;
  const flat = text.replace(/\s+/g, ' ');
  const sentences = splitSentences(flat);
  const background = fittingBackground([sentences.slice(0, 2).join(' '), `${cleanName}.`], 'A person described in a biography.');
  const persona: PersonaContent = {
    profile: {
      identity: { name: cleanName, background, coreTraits: traitsOf(flat) },
      playStyle: {
        voice: genericVoice(cleanName, flat),
        approach: genericApproach(cleanName),
        signaturePhrases: quotesOf(flat),
        signatureMoves: [],
      },
      tactics: GENERIC_TACTICS,
      personality: clip(sentences.slice(2, 4).join(' '), PROFILE_LIMITS.prose.maxChars),
      speechStyle: '',
      decisionStyle: '',
    },
    avatarUrl: null,
    tags: [],
    notes: OFFLINE_PROFILE_NOTE,
    parts: [backstoryPart(cleanName, flat, background)],
    traits: [],
    arc: null,
    card: null,
  };
  const fitted = fitBackstory(persona);
  const checked = personaContentSchema.safeParse(fitted);
  if (!checked.success)
    return err(personaError('invalid', `The biography does not make a valid persona: ${describeIssues(checked.error)}.`));
  return ok(checked.data);
}

function traitsOf(text: string): string[] {
  const lower = text.toLowerCase();
  const found = TRAIT_WORDS.filter((w) => new RegExp(`\\b${w}\\b`).test(lower)).slice(0, PROFILE_LIMITS.coreTraits.max);
  for (const filler of FILLER_TRAITS) {
    if (found.length >= PROFILE_LIMITS.coreTraits.min) break;
    if (!found.includes(filler)) found.push(filler);
  }
  return found;
}

/** Short quoted sayings in the biography ("…" or “…”) are the person's own words. */
function quotesOf(text: string): string[] {
  const quotes = [...text.matchAll(/[“"]([^”"]{4,100})[”"]/g)].map((m) => (m[1] ?? '').trim()).filter((q) => q.split(/\s+/).length >= 2);
  return [...new Set(quotes)].slice(0, PROFILE_LIMITS.signaturePhrases.max);
}

function backstoryPart(name: string, text: string, summary: string) {
  return {
    name: partNameFor(name, 'biography', 'persona'),
    type: 'backstory' as const,
    summary: clip(summary || text, 300),
    content: clip(text, 2000),
  };
}

/** A long biography is cut until the detail rendering fits the word cap. */
function fitBackstory(persona: PersonaContent): PersonaContent {
  let current = persona;
  for (let i = 0; i < 10 && !renderPersona(current, { detail: true }).ok; i++) {
    current = {
      ...current,
      parts: current.parts.map((p) => ({ ...p, content: clip(p.content, Math.max(100, Math.floor(p.content.length * 0.7))) })),
    };
  }
  return current;
}
