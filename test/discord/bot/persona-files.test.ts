import encodeChunks from 'png-chunks-encode';
import extractChunks from 'png-chunks-extract';
import { encode as encodeText } from 'png-chunk-text';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { emptyCardExtras } from '../../persona/fixtures.ts';
import { z } from 'zod';
import { pngWithCard } from '../../../src/persona/card-png.ts';
import { messageText, type OptionValue, type SimMessage } from '../../../scripts/fakes/discord/index.ts';
import { startWorld, type World } from './harness.ts';
import { appended, tidy } from './shared-world.ts';

/** One world for the file: the personas each test made or imported are deleted after it. */
let w: World;
beforeAll(async () => {
  w = await startWorld();
});
afterEach(() => tidy(w));
afterAll(() => w.close());

const persona = (user: string, subcommand: string, options: Record<string, OptionValue> = {}) =>
  w.sim.user(user).slash('game', 'persona', { subcommand, options });

// What the tests read of exported files; loose, so toMatchObject still sees every other field.
const personaFile = z.looseObject({ persona: z.looseObject({ profile: z.unknown() }) });
const cardFile = z.looseObject({ data: z.looseObject({ extensions: z.unknown() }) });

/** A card as people share them (SillyTavern style), with an extension of another tool that must survive. */
const FOREIGN_CARD = {
  spec: 'chara_card_v2',
  spec_version: '2.0',
  data: {
    name: 'Captain Mirelle Vance',
    description: '{{char}} is the disgraced captain of the airship Kestrel. She trusts nobody who smiles too easily.',
    personality: 'suspicious, dry-witted, loyal to her crew',
    scenario: '{{user}} has stowed away aboard the Kestrel.',
    first_mes: '"Name. Now."',
    mes_example: '<START>\n{{user}}: Who are you?\n{{char}}: The one holding the pistol.',
    creator_notes: 'Slow-burn trust.',
    system_prompt: '',
    post_history_instructions: '',
    alternate_greetings: [],
    tags: ['airship', 'captain'],
    creator: 'skyforge',
    character_version: '1.3',
    extensions: { world: 'Skyforge', depth_prompt: { prompt: 'She hides a letter.', depth: 4 } },
  },
};

const V3_CARD = {
  spec: 'chara_card_v3',
  spec_version: '3.0',
  data: {
    ...FOREIGN_CARD.data,
    name: 'Brother Anselm',
    description: 'A soft-spoken monk who keeps the abbey ledgers. He notices every missing coin.',
    personality: 'patient; meticulous; secretly vain',
    nickname: 'Anselm',
    assets: [{ type: 'icon', uri: 'ccdefault:', name: 'main', ext: 'png' }],
    group_only_greetings: [],
    extensions: { 'chub/full_path': 'anselm' },
  },
};

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

function v3Png(card: unknown): Buffer {
  const chunks = extractChunks(pngWithCard('{}')).filter((c) => c.name !== 'tEXt');
  chunks.splice(
    chunks.findIndex((c) => c.name === 'IEND'),
    0,
    encodeText('ccv3', json(card).toString('base64')),
  );
  return Buffer.from(encodeChunks(chunks));
}

function file(message: SimMessage, suffix: string): Buffer {
  const found = message.attachments.find((a) => a.filename.endsWith(suffix));
  if (!found) throw new Error(`no ${suffix} among ${message.attachments.map((a) => a.filename).join(', ')}`);
  return found.data;
}

async function count(): Promise<number> {
  return w.db.prisma.persona.count();
}

describe('/persona export and import', () => {
  it('GIVEN a built-in persona WHEN alice exports it THEN she gets a Dramatis JSON and a card PNG, and the PNG imports back as the same persona whose card exports unchanged', async () => {
    const exported = await persona('alice', 'export', { persona: 'Sherlock Holmes' }).ephemeral();
    expect(exported.attachments.map((a) => a.filename)).toEqual(['sherlock-holmes.persona.json', 'sherlock-holmes.card.png']);
    const dramatis = personaFile.parse(JSON.parse(file(exported, '.persona.json').toString('utf8')));
    expect(dramatis).toMatchObject({
      format: 'dramatis.persona',
      version: 1,
      persona: { profile: { identity: { name: 'Sherlock Holmes' } } },
    });

    const imported = await persona('alice', 'import', {
      file: { filename: 'sherlock.png', content: file(exported, '.card.png'), contentType: 'image/png' },
    }).ephemeral();
    expect(messageText(imported)).toMatch(/Imported \*\*Sherlock Holmes\*\* from a V2 character card \(PNG\)\./);
    const copy = await w.db.prisma.persona.findFirst({ where: { name: 'Sherlock Holmes', builtIn: false } });
    expect(copy?.ownerId).toBe(w.sim.user('alice').id);
    expect(copy?.profile).toEqual(dramatis.persona.profile);

    // The card of the import is the card that was exported, field for field.
    const original = await persona('alice', 'export', {
      persona: (await w.db.prisma.persona.findFirst({ where: { name: 'Sherlock Holmes', builtIn: true } }))!.id,
      format: 'card-json',
    }).ephemeral();
    const again = await persona('alice', 'export', { persona: copy!.id, format: 'card-json' }).ephemeral();
    expect(JSON.parse(file(again, '.card.json').toString('utf8'))).toEqual(JSON.parse(file(original, '.card.json').toString('utf8')));
  });

  it('GIVEN alice’s own persona WHEN she exports its JSON, deletes it and imports the file THEN it comes back byte for byte', async () => {
    await persona('alice', 'create', {
      name: 'Ada Lovelace',
      text: 'Ada Lovelace was a brilliant and curious mathematician. She wrote the first algorithm.',
    }).ephemeral();
    const first = file(await persona('alice', 'export', { persona: 'Ada Lovelace', format: 'json' }).ephemeral(), '.persona.json');
    const id = (await w.db.prisma.persona.findFirst({ where: { name: 'Ada Lovelace' } }))!.id;
    const ask = await persona('alice', 'delete', { persona: 'Ada Lovelace' }).ephemeral();
    await w.sim.user('alice').click(ask, `persona-delete:yes:${id}`).updated();
    expect(
      messageText(await persona('alice', 'import', { file: { filename: 'ada-lovelace.persona.json', content: first } }).ephemeral()),
    ).toMatch(/Imported \*\*Ada Lovelace\*\* from a Dramatis export\./);
    const second = file(await persona('alice', 'export', { persona: 'Ada Lovelace', format: 'json' }).ephemeral(), '.persona.json');
    expect(second.toString('utf8')).toBe(first.toString('utf8'));
  });

  it('GIVEN a foreign V2 card and no model WHEN bob imports it THEN the persona says its tactics are generic, and its export keeps the card’s own fields and extensions', async () => {
    const reply = await persona('bob', 'import', { file: { filename: 'mirelle.json', content: json(FOREIGN_CARD) } }).ephemeral();
    expect(messageText(reply)).toMatch(
      /Imported \*\*Captain Mirelle Vance\*\* from a V2 character card\.\n⚠️ No language model is configured/,
    );
    const card = cardFile.parse(
      JSON.parse(
        file(await persona('bob', 'export', { persona: 'Captain Mirelle Vance', format: 'card-json' }).ephemeral(), '.card.json').toString(
          'utf8',
        ),
      ),
    );
    expect(card.data).toMatchObject({ description: FOREIGN_CARD.data.description, first_mes: '"Name. Now."', creator: 'skyforge' });
    expect(card.data.extensions).toMatchObject(FOREIGN_CARD.data.extensions);
  });

  it('GIVEN a V3 card inside a PNG WHEN carol imports it as a server persona without Manage Server THEN refused; as her own THEN imported', async () => {
    const before = await count();
    const png = { filename: 'anselm.png', content: v3Png(V3_CARD), contentType: 'image/png' };
    expect(messageText(await persona('carol', 'import', { file: png, scope: 'server' }).ephemeral())).toMatch(
      /Nothing was imported: Adding a server persona needs the Manage Server permission/,
    );
    expect(await count()).toBe(before);
    expect(messageText(await persona('carol', 'import', { file: png }).ephemeral())).toMatch(
      /Imported \*\*Brother Anselm\*\* from a V3 character card \(PNG\)/,
    );
    expect(await count()).toBe(before + 1);
  });

  it('GIVEN bad files WHEN imported THEN each is refused with its reason and nothing is stored', async () => {
    const failed = appended(() => w.sim.failedRequests());
    const before = await count();
    const refusal = async (f: { filename: string; content: Buffer | string; contentType?: string }) =>
      messageText(await persona('alice', 'import', { file: f }).ephemeral());
    expect(await refusal({ filename: 'notes.txt', content: 'hello' })).toMatch(
      /notes\.txt is not a file I can import: attach a Dramatis persona export \(\.json\) or a Character Card/,
    );
    expect(await refusal({ filename: 'broken.json', content: '{"spec": "chara_card_v2", "data": ' })).toMatch(
      /Nothing was imported: The card is not valid JSON/,
    );
    expect(await refusal({ filename: 'v1.json', content: json({ name: 'Old', description: 'x' }) })).toMatch(
      /Character Card V1 is not supported/,
    );
    expect(await refusal({ filename: 'wrong.json', content: json({ ...FOREIGN_CARD, data: { ...FOREIGN_CARD.data, name: 42 } }) })).toMatch(
      /Nothing was imported: The card is invalid: data\.name/,
    );
    expect(
      await refusal({
        filename: 'plain.png',
        content: Buffer.from(encodeChunks(extractChunks(pngWithCard('{}')).filter((c) => c.name !== 'tEXt'))),
      }),
    ).toMatch(/The PNG holds no character card/);
    expect(await refusal({ filename: 'future.json', content: json({ format: 'dramatis.persona', version: 99, persona: {} }) })).toMatch(
      /has version 99; this Dramatis reads version 1/,
    );
    expect(await refusal({ filename: 'huge.png', content: Buffer.alloc(9 * 1024 * 1024), contentType: 'image/png' })).toMatch(
      /huge\.png is 9\.0 MiB; the limit is 8\.0 MiB/,
    );
    expect(await refusal({ filename: 'huge.json', content: ' '.repeat(2 * 1024 * 1024) })).toMatch(
      /huge\.json is 2\.0 MiB; the limit is 1\.0 MiB/,
    );
    expect(await count()).toBe(before);
    expect(failed()).toEqual([]);
  });
  it('GIVEN a PNG card carrying 900 KB of extensions and a Dramatis export carrying 200 KB of them WHEN alice imports each THEN both are refused naming card.extensions and its 16 KiB limit, and nothing is stored', async () => {
    const before = await w.db.prisma.persona.findMany({ orderBy: { id: 'asc' } });
    const blob = (bytes: number) => ({ blob: 'x'.repeat(bytes) });
    const card = { ...FOREIGN_CARD, data: { ...FOREIGN_CARD.data, extensions: blob(900_000) } };
    expect(
      messageText(
        await persona('alice', 'import', {
          file: { filename: 'mirelle.png', content: Buffer.from(pngWithCard(JSON.stringify(card))) },
        }).ephemeral(),
      ),
    ).toBe('Nothing was imported: The card is too large to keep: card.extensions: must be at most 16 KiB as JSON (it is 879 KiB).');

    const exported = file(await persona('alice', 'export', { persona: 'Sherlock Holmes' }).ephemeral(), '.json');
    const parsed = personaFile.parse(JSON.parse(exported.toString('utf8')));
    const card200k = { ...parsed, persona: { ...parsed.persona, card: { ...emptyCardExtras(), extensions: blob(200_000) } } };
    expect(
      messageText(await persona('alice', 'import', { file: { filename: 'sherlock.json', content: json(card200k) } }).ephemeral()),
    ).toMatch(/^Nothing was imported: .*card\.extensions: must be at most 16 KiB as JSON \(it is 195 KiB\)/);
    expect(await w.db.prisma.persona.findMany({ orderBy: { id: 'asc' } })).toEqual(before);
  });

  it('GIVEN a card nested 10,000 levels deep and a plain card with a short name WHEN alice imports them THEN the first is refused naming the limit, the second imported', async () => {
    const failed = appended(() => w.sim.failedRequests());
    const before = await count();
    const deep = `{"spec":"chara_card_v2","data":{"name":"Deep","extensions":{"nest":${'['.repeat(10_000)}${']'.repeat(10_000)}}}}`;
    expect(messageText(await persona('alice', 'import', { file: { filename: 'deep.json', content: deep } }).ephemeral())).toBe(
      'Nothing was imported: The card nests lists and objects more than 64 levels deep; the limit is 64.',
    );
    expect(await count()).toBe(before);

    const plain = { spec: 'chara_card_v2', data: { name: 'Mira', personality: 'shy, kind', description: 'A florist in a harbour town.' } };
    expect(messageText(await persona('alice', 'import', { file: { filename: 'mira.json', content: json(plain) } }).ephemeral())).toMatch(
      /^Imported \*\*Mira\*\* from a V2 character card\./,
    );
    expect(await count()).toBe(before + 1);
    expect(failed()).toEqual([]);
  });
});
