import { describe, expect, it } from 'vitest';
import { CARD_LIMITS, cardExtrasSchema, storedCardExtrasSchema, type CardExtras } from '../../src/persona/card-extras.ts';
import { importCard } from '../../src/persona/card-import.ts';
import { pngWithCard } from '../../src/persona/card-png.ts';
import { describeIssues } from '../../src/persona/errors.ts';
import { personaContentSchema } from '../../src/persona/persona.ts';
import { personaSizeError, STORED_PERSONA_BYTES } from '../../src/persona/persona-json.ts';
import { stringMatching } from '../support/matchers.ts';
import { content, emptyCardExtras } from './fixtures.ts';

const EXTRAS: CardExtras = { ...emptyCardExtras(), description: 'A wary captain.', extensions: { world: 'Skyforge' } };
/** Extensions whose JSON is `bytes` long, give or take the braces. */
const extensionsOf = (bytes: number) => ({ blob: 'x'.repeat(bytes) });

const cardWith = (extensions: Record<string, unknown>) => ({
  spec: 'chara_card_v2',
  spec_version: '2.0',
  data: { name: 'Captain Mirelle Vance', description: 'A wary captain of an airship.', extensions },
});

describe('the size of a card’s extensions', () => {
  it('GIVEN extensions just under and just over 16 KiB as JSON WHEN a persona holds them THEN the first is kept, the second refused naming the field and the limit', () => {
    expect(CARD_LIMITS.extensionsBytes).toBe(16 * 1024);
    const fits = extensionsOf(16 * 1024 - 20);
    expect(personaContentSchema.safeParse({ ...content(), card: { ...EXTRAS, extensions: fits } }).success).toBe(true);

    const parsed = personaContentSchema.safeParse({ ...content(), card: { ...EXTRAS, extensions: extensionsOf(6_000_000) } });
    expect(parsed.success).toBe(false);
    if (!parsed.success) expect(describeIssues(parsed.error)).toBe('card.extensions: must be at most 16 KiB as JSON (it is 5859 KiB)');
  });

  it('GIVEN a stored row from before the bound WHEN read back THEN it still reads, though a save of it is refused', () => {
    const old = { ...EXTRAS, extensions: extensionsOf(100_000) };
    expect(storedCardExtrasSchema.safeParse(old).success).toBe(true);
    expect(cardExtrasSchema.safeParse(old).success).toBe(false);
  });

  it('GIVEN a PNG card carrying megabytes of extensions WHEN imported with a profiler THEN it is refused naming the limit, and the profiler was never asked', async () => {
    const asked: string[] = [];
    const png = pngWithCard(JSON.stringify(cardWith(extensionsOf(900_000))));
    const imported = await importCard(png, {
      profiler: (name) => {
        asked.push(name);
        return Promise.reject(new Error('the profiler must not run'));
      },
    });
    expect(imported).toEqual({
      ok: false,
      error: {
        code: 'too_large',
        message: 'The card is too large to keep: card.extensions: must be at most 16 KiB as JSON (it is 879 KiB).',
      },
    });
    expect(asked).toEqual([]);
  });

  it('GIVEN the card inside a PNG over 1 MiB WHEN imported THEN it is refused before it is parsed', async () => {
    const imported = await importCard(pngWithCard('"' + 'x'.repeat(1_100_000) + '"'));
    expect(imported).toMatchObject({
      ok: false,
      error: { code: 'too_large', message: 'The card inside the PNG is 1074 KiB; the limit is 1024 KiB.' },
    });
  });
});

describe('the size of a whole persona', () => {
  /** 15 greetings of about 20,000 characters: each within its limit, about 290 KiB as a persona. */
  const GREETINGS = Array.from({ length: 15 }, () => 'Hello. '.repeat(2_800));

  it('GIVEN a persona within every field’s limit but 290 KiB in all WHEN sized THEN it is refused naming the 256 KiB limit; one with a few greetings fits', () => {
    expect(STORED_PERSONA_BYTES).toBe(256 * 1024);
    const huge = personaContentSchema.parse({ ...content(), card: { ...EXTRAS, alternateGreetings: GREETINGS } });
    expect(personaSizeError(huge)).toEqual({
      code: 'too_large',
      message:
        'The persona is 290 KiB in all (its profile, parts, traits, arc and card together); the limit is 256 KiB. ' +
        'Shorten its longest fields (a card’s greetings or example messages, its parts) and try again.',
    });
    expect(personaSizeError({ ...huge, card: { ...EXTRAS, alternateGreetings: GREETINGS.slice(0, 3) } })).toBeNull();
  });

  it('GIVEN a card whose persona would be too large to store WHEN imported with a profiler THEN it is refused naming the limit, and the profiler was never asked', async () => {
    const asked: string[] = [];
    const card = { ...cardWith({}), data: { ...cardWith({}).data, alternate_greetings: GREETINGS } };
    const imported = await importCard(Buffer.from(JSON.stringify(card)), {
      profiler: (name) => {
        asked.push(name);
        return Promise.reject(new Error('the profiler must not run'));
      },
    });
    expect(imported).toMatchObject({ ok: false, error: { code: 'too_large', message: stringMatching(/the limit is 256 KiB/) } });
    expect(asked).toEqual([]);
  });
});
