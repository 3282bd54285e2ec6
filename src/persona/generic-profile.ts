import { PROFILE_LIMITS, type Tactics } from './profile.ts';
import { clip, countWords, firstWords, splitSentences } from './text.ts';

/** Role tactics that suit any character, for cards imported without a model to write their own. */
export const GENERIC_TACTICS: Tactics = {
  town: ['Ask each quiet player for one read', 'Vote the player whose story changed', 'Explain every vote in one sentence'],
  mafia: ['Agree with the majority early', 'Cast doubt on the loudest accuser', 'Never defend your partner first'],
  detective: [
    'Investigate whoever steers the votes',
    'Reveal a guilty result before the vote',
    'Keep innocent results until a claim needs checking',
  ],
  doctor: ['Protect a claimed Detective', 'Vary your protections', 'Never reveal your saves'],
};

const L = PROFILE_LIMITS;

/** The name as the play style says it; a name too long to fit the word limits is "The character". */
function subject(name: string): string {
  return countWords(name) <= 4 && name.length <= 40 ? name : 'The character';
}

/** Up to 12 words of the card's or biography's manner, or nothing when it has none to give. */
function mannerHint(manner: string): string {
  const words = clip(firstWords(manner.replace(/\s+/g, ' '), 12), 80).replace(/[\s.,;:!?…]+$/u, '');
  return words === '' ? 'true to the character card' : `shaped by: ${words}`;
}

/**
 * 25–40 words (at most 320 characters) in the character's manner, whatever the name and manner
 * hold: the bot derives it, so it must never be what refuses a card or a biography.
 */
export function genericVoice(name: string, manner: string): string {
  const text = `${subject(name)} speaks in character, ${mannerHint(manner)}. Short turns, clear opinions, and a manner the table will recognise, whether accusing, defending or joking.`;
  const voice = countWords(text) >= L.voice.minWords ? text : `${text} Never drops the character, never explains the joke.`;
  return countWords(voice) <= L.voice.maxWords && voice.length <= L.voice.maxChars
    ? voice
    : clip(firstWords(voice, L.voice.maxWords), L.voice.maxChars);
}

/**
 * The first of the candidates that makes a background (1–2 sentences within the limit), else the
 * last, which must: a name or a description may itself hold sentence breaks.
 */
export function fittingBackground(candidates: readonly string[], last: string): string {
  const fitting = candidates
    .map((c) => clip(c, L.background.maxChars))
    .find((c) => c !== '' && splitSentences(c).length <= L.background.maxSentences);
  return fitting ?? last;
}

/** 40–60 words of a balanced, sensible play style. */
export function genericApproach(name: string): string {
  return `${subject(name)} plays a balanced game: listens before accusing, weighs votes more than words, and pushes a suspect only with a concrete reason. Defends calmly with their own record, changes their mind when the evidence changes, and avoids wild risks early while the table is still unclear.`;
}
