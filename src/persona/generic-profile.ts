import type { Tactics } from './profile.ts';
import { countWords, firstWords } from './text.ts';

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

/** 25–40 words in the character's manner, built from what the card says of it. */
export function genericVoice(name: string, manner: string): string {
  const hint = manner.trim() === '' ? 'true to the character card' : `shaped by: ${firstWords(manner.replace(/\s+/g, ' '), 12)}`;
  const text = `${name} speaks in character, ${hint}. Short turns, clear opinions, and a manner the table will recognise, whether accusing, defending or joking.`;
  return countWords(text) <= 40 ? text : firstWords(text, 40);
}

/** 40–60 words of a balanced, sensible play style. */
export function genericApproach(name: string): string {
  return `${name} plays a balanced game: listens before accusing, weighs votes more than words, and pushes a suspect only with a concrete reason. Defends calmly with their own record, changes their mind when the evidence changes, and avoids wild risks early while the table is still unclear.`;
}
