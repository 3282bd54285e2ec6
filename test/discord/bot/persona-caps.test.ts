/** How many personas a person and a server may keep (issue 26): refused past the cap, with nothing stored and no model asked. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FakeLlmServer } from '../../../scripts/fakes/llm/fake-llm-server.ts';
import { startFakeOpenAi } from '../../../scripts/fakes/llm/fake-openai.ts';
import { isEphemeral, messageText, type OptionValue } from '../../../scripts/fakes/discord/index.ts';
import { pngWithCard } from '../../../src/persona/card-png.ts';
import { content } from '../../persona/fixtures.ts';
import { OFFLINE, startWorld, type World } from './harness.ts';
import { tidy } from './shared-world.ts';

const CAPS = { perUser: 2, perServer: 2 };
const BIO = 'Ada Lovelace was an English mathematician, curious and proud. She wrote the first algorithm for the Analytical Engine.';
const CARD = {
  spec: 'chara_card_v2',
  data: { name: 'Captain Mirelle Vance', description: 'The disgraced captain of the airship Kestrel. She trusts nobody.' },
};

let w: World;
let fake: FakeLlmServer;
beforeAll(async () => {
  fake = await startFakeOpenAi();
  const llm = {
    ...OFFLINE,
    provider: 'openai' as const,
    openai: { apiKey: 'test-key', baseURL: fake.baseURL, model: 'm' },
    timeoutMs: 5000,
  };
  w = await startWorld({ llm, model: fake, personaCaps: CAPS });
});
afterEach(() => tidy(w));
afterAll(() => w.close());

const persona = (user: string, subcommand: string, options: Record<string, OptionValue> = {}) =>
  w.sim.user(user).slash('game', 'persona', { subcommand, options });

/** What the person is told, privately. */
async function told(user: string, subcommand: string, options: Record<string, OptionValue>): Promise<string> {
  const answer = await persona(user, subcommand, options).ephemeral();
  expect(isEphemeral(answer)).toBe(true);
  return messageText(answer);
}

const rows = () => w.db.prisma.persona.findMany({ where: { builtIn: false }, orderBy: { id: 'asc' } });

async function fill(userId: string, names: readonly string[], scope: 'private' | 'server'): Promise<void> {
  for (const name of names) {
    const created = await w.personas.create(
      { userId, guildId: w.sim.guild('Club').id, canManageServer: true },
      { scope: scope === 'server' ? { kind: 'server', guildId: w.sim.guild('Club').id } : { kind: 'private' }, content: content({}, name) },
    );
    if (!created.ok) throw new Error(created.error.message);
  }
}

describe('a person at the cap', () => {
  it('GIVEN alice owns 2 personas, the cap WHEN she creates, imports or duplicates one more THEN each is refused naming the limit and what to do, no model is asked, nothing is stored', async () => {
    await fill(w.sim.user('alice').id, ['Ada One', 'Ada Two'], 'private');
    const before = await rows();
    const requests = fake.requests.length;
    const capped = 'You already have 2 personas; the limit is 2 a person. Delete one with /persona delete, then try again.';

    expect(await told('alice', 'create', { name: 'Ada Three', text: BIO })).toBe(
      `Nothing was created: ${capped}\nYour biography is attached: use it with \`/persona create file:\` once this is fixed.`,
    );
    expect(
      await told('alice', 'import', { file: { filename: 'mirelle.png', content: Buffer.from(pngWithCard(JSON.stringify(CARD))) } }),
    ).toBe(`Nothing was imported: ${capped}`);
    expect(await told('alice', 'duplicate', { persona: 'Sherlock Holmes' })).toBe(`Nothing was copied: ${capped}`);
    expect(fake.requests.length).toBe(requests);
    expect(await rows()).toEqual(before);
  });

  it('GIVEN alice deleted one of her 2 personas WHEN she duplicates THEN the copy is made', async () => {
    await fill(w.sim.user('alice').id, ['Ada One', 'Ada Two'], 'private');
    const two = await w.db.prisma.persona.findFirstOrThrow({ where: { name: 'Ada Two' } });
    const removed = await w.personas.remove({ userId: two.ownerId, guildId: null, canManageServer: false }, two.id);
    expect(removed.ok).toBe(true);
    expect(await told('alice', 'duplicate', { persona: 'Sherlock Holmes' })).toMatch(
      /^Copied Sherlock Holmes to \*\*Sherlock Holmes \(copy\)\*\*/,
    );
  });
});

describe('a server at the cap', () => {
  it('GIVEN the server holds 2 server personas, the cap WHEN the moderator creates a third for the server THEN refused naming the limit; a private one still fits', async () => {
    await fill(w.sim.user('mod').id, ['House One'], 'server');
    await fill(w.sim.user('alice').id, ['House Two'], 'server');
    const before = await rows();
    expect(await told('mod', 'duplicate', { persona: 'Sherlock Holmes', scope: 'server' })).toBe(
      'Nothing was copied: This server already has 2 server personas; the limit is 2 a server. Delete one with /persona delete, then try again.',
    );
    expect(await rows()).toEqual(before);
    expect(await told('mod', 'duplicate', { persona: 'Sherlock Holmes' })).toMatch(/as your private persona/);
  });
});
