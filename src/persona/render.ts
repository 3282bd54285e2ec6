import { z } from 'zod';
import { err, ok, type Result } from '../result.ts';
import { resolveParts, type PartOverrides, type ResolvedPart } from './compose.ts';
import type { Trait } from './composition.ts';
import { personaError, type PersonaError } from './errors.ts';
import type { PersonaContent } from './persona.ts';
import { TACTICS_ROLES, tacticsSchema, type Tactics } from './profile.ts';
import { countWords } from './text.ts';

/** Seed 001: under 180 words feels thin, over 400 drifts; past the hard cap it is refused. */
const RENDER_LIMITS = { warnBelow: 180, warnAbove: 400, maxWords: 800 } as const;

export interface RenderOptions {
  readonly overrides?: PartOverrides;
  /** Parts' full content instead of their summaries. */
  readonly detail?: boolean;
}

/** A persona as the prompt takes it; `text` is the whole of it, what the word bounds measure. */
export interface RenderedPersona {
  readonly name: string;
  /** The persona block of the system prompt (without the tactics, which the prompt places per role). */
  readonly block: string;
  readonly tactics: Tactics;
  readonly phrases: readonly string[];
  /** `block` followed by the tactics of every role. */
  readonly text: string;
  readonly words: number;
  readonly warnings: readonly string[];
  readonly detail: boolean;
}

const ROLE_TITLES = { town: 'Town', mafia: 'Mafia', detective: 'Detective', doctor: 'Doctor' } as const;

const title = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);
const quoted = (items: readonly string[]): string => items.map((p) => `“${p}”`).join('; ');
const sentence = (line: string): string => (/[.!?…”"]$/.test(line) ? line : `${line}.`);

function partLines(parts: readonly ResolvedPart[], detail: boolean): string[] {
  return parts.map((part) => `${title(part.type)} (${part.name}): ${detail ? part.content : part.summary}`);
}

function traitLines(traits: readonly Trait[]): string[] {
  if (traits.length === 0) return [];
  return ['How you apply your traits:', ...traits.map((t) => `- ${t.name} (${t.type}): ${t.instruction}`)];
}

/**
 * The persona block: the same persona and options give the same text, byte for byte, so
 * providers can cache the prompt prefix it sits in.
 */
export function renderPersona(persona: PersonaContent, options: RenderOptions = {}): Result<RenderedPersona, PersonaError> {
  const detail = options.detail ?? false;
  const parts = resolveParts(persona.parts, persona.arc, options.overrides);
  if (!parts.ok) return parts;
  const { identity, playStyle, tactics } = persona.profile;
  const lines = [
    `You are ${identity.name}. ${identity.background}`,
    `Core traits: ${identity.coreTraits.join(', ')}.`,
    `Voice: ${playStyle.voice}`,
    `Approach: ${playStyle.approach}`,
    ...(persona.profile.personality ? [`Personality: ${persona.profile.personality}`] : []),
    ...(persona.profile.speechStyle ? [`Speech style: ${persona.profile.speechStyle}`] : []),
    ...(persona.profile.decisionStyle ? [`Decision style: ${persona.profile.decisionStyle}`] : []),
    ...(playStyle.signaturePhrases.length > 0 ? [`Signature phrases: ${quoted(playStyle.signaturePhrases)}`] : []),
    ...(playStyle.signatureMoves.length > 0 ? [`Signature moves: ${playStyle.signatureMoves.map(sentence).join(' ')}`] : []),
    ...traitLines(persona.traits),
    ...partLines(parts.value, detail),
  ];
  const block = lines.join('\n');
  const tacticsText = TACTICS_ROLES.flatMap((role) => [`As ${ROLE_TITLES[role]}:`, ...tactics[role].map((t) => `- ${t}`)]);
  const text = [block, '', 'Your tactics by role:', ...tacticsText].join('\n');
  const words = countWords(text);
  if (words > RENDER_LIMITS.maxWords) {
    return err(
      personaError(
        'invalid',
        `The persona renders to ${words} words; the limit is ${RENDER_LIMITS.maxWords}. Shorten its parts or profile.`,
      ),
    );
  }
  const warnings: string[] = [];
  if (words < RENDER_LIMITS.warnBelow) {
    warnings.push(`The persona renders to ${words} words; under ${RENDER_LIMITS.warnBelow} it tends to feel thin (aim for 200–300).`);
  }
  if (words > RENDER_LIMITS.warnAbove) {
    warnings.push(
      `The persona renders to ${words} words; over ${RENDER_LIMITS.warnAbove} models drift and contradict it (aim for 200–300).`,
    );
  }
  return ok({ name: identity.name, block, tactics, phrases: playStyle.signaturePhrases, text, words, warnings, detail });
}

/** The compiled copy the store keeps is read back through this. */
export const renderedPersonaSchema = z.object({
  name: z.string(),
  block: z.string(),
  tactics: tacticsSchema,
  phrases: z.array(z.string()),
  text: z.string(),
  words: z.number(),
  warnings: z.array(z.string()),
  detail: z.boolean(),
});
