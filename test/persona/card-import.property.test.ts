import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { importCard } from '../../src/persona/card-import.ts';
import { pngWithCard } from '../../src/persona/card-png.ts';
import { renderPersona } from '../../src/persona/render.ts';
import { counted, propertyRuns } from '../support/property-size.ts';

const bytes = (value: unknown) => Buffer.from(JSON.stringify(value));

// Pieces of the text people put in shared character cards: placeholders, roleplay asterisks,
// quotes, abbreviations, names with punctuation, runs of short and very long words.
const WORDS = fc.constantFrom(
  'the',
  'a',
  'she',
  'he',
  'they',
  'captain',
  'airship',
  'ledger',
  'never',
  'trusts',
  'smiles',
  'quiet',
  'storm',
  'knife',
  '{{char}}',
  '{{user}}',
  '*smiles*',
  '"Name."',
  'Dr.',
  'St.',
  'e.g.',
  'No.',
  '—',
  '...',
  '!',
  '?!',
  '🌙',
  'ドラゴン',
  'extraordinarily-long-hyphenated-compound-adjective',
  'x'.repeat(90),
);
const sentence = fc
  .tuple(fc.array(WORDS, { minLength: 1, maxLength: 25 }), fc.constantFrom('.', '!', '?', '', '…', '."'))
  .map(([words, end]) => `${words.join(' ')}${end}`);
const prose = (maxSentences: number) =>
  fc.array(sentence, { maxLength: maxSentences }).chain((s) => fc.constantFrom(s.join(' '), s.join('\n\n'), s.join('\n')));
const trait = fc.oneof(
  WORDS,
  fc.array(WORDS, { minLength: 2, maxLength: 4 }).map((w) => w.join(' ')),
);
const personality = fc.oneof(
  fc.constant(''),
  fc.array(trait, { minLength: 1, maxLength: 12 }).chain((t) => fc.constantFrom(t.join(', '), t.join('; '), t.join(' and '), t.join('\n'))),
  prose(4),
);
const name = fc.oneof(
  fc.constantFrom(
    'Mira',
    'Captain Mirelle Vance',
    "'Lucky' Jack",
    '-Yuki-',
    'Dr. Eleanor Price',
    'KAI-7',
    '🌙 Luna',
    '**Bold** Name',
    'The Narrator',
    'A Very Long Name For A Character Who Has Many Titles And Epithets',
    'a b c d e f g h i j k l m n o p q r s t u v w x y z a b c d',
    '_underscore_',
    'Ω',
    '.hack',
    'x'.repeat(40),
    'Anne-Marie de la Tour du Pin Gouvernet, comtesse',
  ),
  fc.array(WORDS, { minLength: 1, maxLength: 8 }).map((w) => w.join(' ')),
  fc.string({ minLength: 1, maxLength: 80 }).filter((s) => s.trim() !== ''),
);
const example = fc
  .array(fc.tuple(fc.constantFrom('{{user}}', '{{char}}'), sentence), { maxLength: 8 })
  .map((lines) => (lines.length === 0 ? '' : `<START>\n${lines.map(([who, said]) => `${who}: ${said}`).join('\n')}`));

const card = fc.record({
  spec: fc.constantFrom('chara_card_v2', 'chara_card_v3'),
  data: fc.record(
    {
      name,
      description: prose(40),
      personality,
      scenario: prose(6),
      first_mes: prose(3),
      mes_example: example,
      creator_notes: prose(3),
      system_prompt: prose(5),
      post_history_instructions: prose(3),
      tags: fc.array(fc.oneof(WORDS, fc.string({ maxLength: 40 })), { maxLength: 15 }),
      creator: fc.string({ maxLength: 20 }),
      character_version: fc.constantFrom('1.0', 'v2', ''),
    },
    { requiredKeys: ['name'] },
  ),
});

describe('what the importer derives from a card', () => {
  it('GIVEN a plain card with a one-word name and a two-word personality WHEN imported THEN it is a persona, its generic voice within 25–40 words', async () => {
    const result = await importCard(
      bytes({ spec: 'chara_card_v2', data: { name: 'Mira', personality: 'shy, kind', description: 'A florist.' } }),
    );
    expect(result).toMatchObject({ ok: true });
  });

  const runs = propertyRuns(2000);
  it(`GIVEN ${counted(runs)} real-looking cards, as JSON and as PNG WHEN imported THEN each is a persona that renders: no field the bot derives refuses a card`, async () => {
    await fc.assert(
      fc.asyncProperty(card, fc.boolean(), async (c, png) => {
        const file = png ? pngWithCard(JSON.stringify(c)) : bytes(c);
        const result = await importCard(file);
        if (!result.ok) throw new Error(`${JSON.stringify(c.data.name)}: ${result.error.message}`);
        expect(renderPersona(result.value.persona).ok).toBe(true);
        expect(renderPersona(result.value.persona, { detail: true }).ok).toBe(true);
      }),
      { numRuns: runs },
    );
  });
});
