import { decode as decodeText } from 'png-chunk-text';
import encodeChunks from 'png-chunks-encode';
import extractChunks from 'png-chunks-extract';
import { encode as encodeText } from 'png-chunk-text';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { exportCardV2, exportCardV2Json, exportCardV2Png } from '../../src/persona/card-export.ts';
import { cardProfiler } from '../../src/agents/profiler/profiler.ts';
import { importCard } from '../../src/persona/card-import.ts';
import { cardJsonFromPng, pngWithCard } from '../../src/persona/card-png.ts';
import { exportPersonaJson, importPersonaJson } from '../../src/persona/persona-json.ts';
import { readStarterPack } from '../../src/persona/starter-pack.ts';
import { reply } from '../../scripts/fakes/llm/fake-llm-server.ts';
import { startFakeProvider, type FakeProvider } from '../../scripts/fakes/llm/fake-providers.ts';
import { arc, content, part, profile, trait } from './fixtures.ts';

/** A persona export read back as plain JSON, loose enough to break one field of it on purpose. */
const exportedFile = z.looseObject({ persona: z.looseObject({ profile: z.record(z.string(), z.unknown()) }) });
const bytes = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));

/** Shaped like cards people share: placeholders, examples with <START>, a lorebook-ish extension. */
const V2_CARD = {
  spec: 'chara_card_v2',
  spec_version: '2.0',
  data: {
    name: 'Captain Mirelle Vance',
    description:
      '{{char}} is the disgraced captain of the airship Kestrel, court-martialled for a mutiny she claims she stopped. She trusts nobody who smiles too easily. Years of smuggling taught her to read a bluff across a card table.',
    personality: 'suspicious, dry-witted, loyal to her crew, quick to anger',
    scenario: '{{user}} has stowed away aboard the Kestrel during a storm.',
    first_mes: '*Mirelle levels her pistol.* "Name. Now."',
    mes_example: '<START>\n{{user}}: Who are you?\n{{char}}: The one holding the pistol. Next question.',
    creator_notes: 'Works best with a slow-burn trust arc.',
    system_prompt: 'Write {{char}} terse and wary. Never break character.',
    post_history_instructions: 'Keep replies under 120 words.',
    alternate_greetings: ['*The deck lurches.* "Hold on to something."'],
    character_book: undefined,
    tags: ['airship', 'captain', 'female'],
    creator: 'skyforge',
    character_version: '1.3',
    extensions: { talkativeness: '0.5', fav: false, depth_prompt: { prompt: 'She hides a letter.', depth: 4 }, world: 'Skyforge' },
  },
};

const V3_CARD = {
  spec: 'chara_card_v3',
  spec_version: '3.0',
  data: {
    ...V2_CARD.data,
    name: 'Brother Anselm',
    description: 'A soft-spoken monk who keeps the abbey ledgers. He notices every missing coin.',
    personality: 'patient; meticulous; secretly vain',
    nickname: 'Anselm',
    assets: [{ type: 'icon', uri: 'ccdefault:', name: 'main', ext: 'png' }],
    group_only_greetings: [],
    creation_date: 1730000000,
    extensions: { 'chub/full_path': 'anselm', risu: { utilityBot: false } },
  },
};

let running: FakeProvider | undefined;
afterEach(async () => {
  await running?.fake.close();
  running = undefined;
});

async function imported(file: Uint8Array, options = {}) {
  const result = await importCard(file, options);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

describe('Character Card import', () => {
  it('GIVEN a real-world-shaped V2 card and no model WHEN imported THEN its fields map onto the profile and parts, with generic tactics and a note', async () => {
    const card = await imported(bytes(V2_CARD));
    const { persona } = card;
    expect(card.spec).toBe('chara_card_v2');
    expect(persona.profile.identity).toEqual({
      name: 'Captain Mirelle Vance',
      background:
        'Captain Mirelle Vance is the disgraced captain of the airship Kestrel, court-martialled for a mutiny she claims she stopped. She trusts nobody who smiles too easily.',
      coreTraits: ['suspicious', 'dry-witted', 'loyal to her crew', 'quick to anger', 'airship'],
    });
    expect(persona.profile.personality).toBe(V2_CARD.data.personality);
    expect(persona.parts.map((p) => [p.type, p.name])).toEqual([
      ['backstory', 'Captain Mirelle Vance backstory'],
      ['context', 'Captain Mirelle Vance scenario'],
      ['voice', 'Captain Mirelle Vance example dialogue'],
      ['context', "Captain Mirelle Vance author's notes"],
      ['context', "Captain Mirelle Vance author's later notes"],
    ]);
    expect(persona.parts[1]?.content).toBe('another player has stowed away aboard the Kestrel during a storm.');
    expect(persona.tags).toEqual(['airship', 'captain', 'female']);
    expect(persona.notes).toContain('Works best with a slow-burn trust arc.');
    expect(card.warnings).toEqual([expect.stringMatching(/No language model is configured.*OPENAI_API_KEY or ANTHROPIC_API_KEY/)]);
    expect(persona.profile.tactics.detective.length).toBeGreaterThanOrEqual(2);
  });

  it('GIVEN a V2 card WHEN imported and exported again THEN every card field and every extension comes back as it was', async () => {
    const { persona } = await imported(bytes(V2_CARD));
    const { character_book: _none, ...expected } = V2_CARD.data;
    const card = exportCardV2(persona);
    const { dramatis, ...extensions } = card.data.extensions;
    expect({ ...card.data, extensions }).toEqual(expected);
    expect(dramatis).toBeDefined();
    // …and Dramatis reads its own card back to the same persona.
    expect((await imported(bytes(exportCardV2Json(persona)))).persona).toEqual(persona);
  });

  it('GIVEN a V3 card in a PNG built here WHEN imported THEN the ccv3 chunk wins over a stale chara chunk and V3 extensions survive export', async () => {
    const blank = pngWithCard('{}');
    const chunks = extractChunks(blank).filter((c) => c.name !== 'tEXt');
    const end = chunks.findIndex((c) => c.name === 'IEND');
    chunks.splice(end, 0, encodeText('chara', Buffer.from(JSON.stringify(V2_CARD)).toString('base64')));
    chunks.splice(end, 0, encodeText('ccv3', Buffer.from(JSON.stringify(V3_CARD)).toString('base64')));
    const card = await imported(encodeChunks(chunks));
    expect(card.spec).toBe('chara_card_v3');
    expect(card.persona.profile.identity.name).toBe('Brother Anselm');
    expect(card.persona.profile.identity.coreTraits).toEqual(['patient', 'meticulous', 'secretly vain', 'airship', 'captain']);
    expect(exportCardV2(card.persona).data.extensions).toMatchObject(V3_CARD.data.extensions);
  });

  it('GIVEN a persona WHEN exported as a V2 PNG THEN the PNG carries a valid V2 card in its chara chunk that imports back', async () => {
    const persona = content({ parts: [part('ledger', 'backstory')] });
    const png = exportCardV2Png(persona);
    const texts = extractChunks(png)
      .filter((c) => c.name === 'tEXt')
      .map((c) => decodeText(c.data));
    expect(texts.map((t) => t.keyword)).toEqual(['chara']);
    const json = cardJsonFromPng(png);
    expect(json.ok && JSON.parse(json.value)).toMatchObject({ spec: 'chara_card_v2', spec_version: '2.0', data: { name: 'Ada Lovelace' } });
    const back = await imported(png);
    expect({ ...back.persona, card: null }).toEqual(persona);
  });

  it('GIVEN a configured model WHEN a card is imported THEN the profiler writes the play style and role tactics', async () => {
    const { identity: _identity, playStyle, ...rest } = profile();
    running = await startFakeProvider('openai', {
      script: [reply.structured({ background: 'x.', coreTraits: ['a', 'b', 'c'], ...playStyle, ...rest })],
    });
    const card = await imported(bytes(V2_CARD), { profiler: cardProfiler({ provider: running.provider, model: 'm' }) });
    expect(card.persona.profile.tactics).toEqual(profile().tactics);
    expect(card.warnings).toEqual([]);
    expect(running.fake.last.lastUserText).toContain('Personality: suspicious, dry-witted');
  });

  it('GIVEN bad card files WHEN imported THEN each gets an error naming the problem', async () => {
    const problem = async (file: Uint8Array) => {
      const r = await importCard(file);
      return r.ok ? 'ok' : `${r.error.code}: ${r.error.message}`;
    };
    expect(await problem(bytes('{"spec": "chara_card_v2", '))).toMatch(/^malformed: The card is not valid JSON/);
    expect(await problem(bytes({ spec: 'chara_card_v9', data: {} }))).toMatch(
      /^unsupported: .*"chara_card_v9"; expected chara_card_v2 or chara_card_v3/,
    );
    expect(await problem(bytes({ name: 'Old', description: 'v1' }))).toMatch(/^unsupported: .*V1 is not supported/);
    expect(await problem(bytes({ spec: 'chara_card_v2', data: { description: 'no name' } }))).toMatch(
      /^invalid: The card is invalid: data.name: the card has no name/,
    );
    expect(await problem(bytes({ spec: 'chara_card_v2' }))).toMatch(/^invalid: .*data: the card has no data object/);
    expect(await problem(Buffer.alloc(2 * 1024 * 1024, 32))).toMatch(/^too_large: The JSON card is 2048 KiB; the limit is 1024 KiB/);
    expect(await problem(pngWithCard('{}').subarray(0, 40))).toMatch(/^malformed: The PNG is damaged/);
    const plain = encodeChunks(extractChunks(pngWithCard('{}')).filter((c) => c.name !== 'tEXt'));
    expect(await problem(plain)).toMatch(/^unsupported: The PNG holds no character card/);
  });

  it('GIVEN cards nested 10,000 deep or too big inside a PNG WHEN imported THEN refused before parsing, the message naming the limit', async () => {
    const problem = async (file: Uint8Array) => {
      const r = await importCard(file);
      return r.ok ? 'ok' : `${r.error.code}: ${r.error.message}`;
    };
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const deepCard = `{"spec":"chara_card_v2","data":{"name":"Deep","extensions":{"nest":${deep}}}}`;
    expect(await problem(bytes(deepCard))).toBe('too_large: The card nests lists and objects more than 64 levels deep; the limit is 64.');
    expect(await problem(pngWithCard(deepCard))).toBe(
      'too_large: The card inside the PNG nests lists and objects more than 64 levels deep; the limit is 64.',
    );
    // Brackets inside strings are text, not nesting.
    expect(await problem(bytes({ ...V2_CARD, data: { ...V2_CARD.data, description: `${'[{'.repeat(100)} Deep.` } }))).toBe('ok');
    const big = { ...V2_CARD, data: { ...V2_CARD.data, first_mes: 'x'.repeat(1100 * 1024) } };
    expect(await problem(pngWithCard(JSON.stringify(big)))).toMatch(
      /^too_large: The card inside the PNG is 1\d{3} KiB; the limit is 1024 KiB\.$/,
    );
  });
});

describe('JSON export', () => {
  it('GIVEN a persona with parts, traits and an arc WHEN exported and imported THEN it round-trips exactly, byte for byte', () => {
    const persona = content({
      parts: [part('stoic soul', 'soul')],
      traits: [trait('methodical')],
      arc: { arc: arc(), stage: 1 },
      avatarUrl: 'https://example.com/a.png',
    });
    const json = exportPersonaJson(persona);
    const back = importPersonaJson(json);
    expect(back).toEqual({ ok: true, value: persona });
    if (back.ok) expect(exportPersonaJson(back.value)).toBe(json);
    expect(JSON.parse(json)).toMatchObject({ format: 'dramatis.persona', version: 1 });
  });

  it('GIVEN every starter WHEN exported THEN it equals its shipped file', async () => {
    const pack = await readStarterPack();
    if (!pack.ok) throw new Error(pack.error.message);
    for (const persona of pack.value) expect(importPersonaJson(exportPersonaJson(persona))).toEqual({ ok: true, value: persona });
  });

  it('GIVEN bad persona files WHEN imported THEN each gets an error naming the problem', () => {
    const problem = (file: string | Uint8Array) => {
      const r = importPersonaJson(file);
      return r.ok ? 'ok' : `${r.error.code}: ${r.error.message}`;
    };
    const good = exportedFile.parse(JSON.parse(exportPersonaJson(content())));
    expect(problem('not json')).toMatch(/^malformed:/);
    expect(problem(JSON.stringify({ format: 'other' }))).toMatch(/^unsupported: .*not a Dramatis persona export/);
    expect(problem(JSON.stringify({ ...good, version: 2 }))).toMatch(/^unsupported: .*version 2; this Dramatis reads version 1/);
    const missing = structuredClone(good);
    delete missing.persona.profile.tactics;
    expect(problem(JSON.stringify(missing))).toMatch(/^invalid: .*persona.profile.tactics: /);
    expect(problem(Buffer.alloc(300 * 1024, 32))).toMatch(/^too_large:/);
    const deep = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    expect(problem(`{"format":"dramatis.persona","version":1,"persona":${deep}}`)).toBe(
      'too_large: The persona file nests lists and objects more than 64 levels deep; the limit is 64.',
    );
  });
});
