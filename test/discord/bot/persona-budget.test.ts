import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAnthropicProvider } from '../../../src/llm/anthropic-provider.ts';
import type { LlmConfig } from '../../../src/config.ts';
import { createLlmCallStore } from '../../../src/db/llm-call-store.ts';
import { ledgerRow } from '../../support/ledger-row.ts';
import { startFakeAnthropic } from '../../../scripts/fakes/llm/fake-anthropic.ts';
import { reply, type FakeLlmServer } from '../../../scripts/fakes/llm/fake-llm-server.ts';
import { startFakeOpenAi } from '../../../scripts/fakes/llm/fake-openai.ts';
import { messageText, type OptionValue, type SimMessage } from '../../../scripts/fakes/discord/index.ts';
import { content, profile } from '../../persona/fixtures.ts';
import { OFFLINE, startWorld, type World } from './harness.ts';
import { tidy } from './shared-world.ts';

let w: World | undefined;

/**
 * The two budgets most tests need, each a world on the OpenAI fake shared by those tests: plenty
 * of budget, or the day's spent before the bot first reads it (none of them spends any). Started
 * by the first test that asks, tidied after each test, closed after the file.
 */
type Budget = 'plenty' | 'spent';
const shared = new Map<Budget, Promise<{ world: World; fake: FakeLlmServer }>>();

/** Ledger rows there before this test (the calls of the tests before it in its shared world). */
let ledgerBefore: ReadonlySet<string> = new Set();

async function onBudget(budget: Budget): Promise<{ w: World; fake: FakeLlmServer }> {
  let started = shared.get(budget);
  if (!started) {
    started = (async () => {
      const fake = await startFakeOpenAi();
      const world = await startWorld({ llm: configFor('openai', fake.baseURL, budget === 'plenty' ? 100_000 : 1000), model: fake });
      if (budget === 'spent') await spentEarlier(world, 5000);
      return { world, fake };
    })();
    shared.set(budget, started);
  }
  const on = await started;
  w = on.world;
  on.fake.reset();
  ledgerBefore = new Set((await on.world.db.prisma.llmCall.findMany({ select: { id: true } })).map((row) => row.id));
  return { w: on.world, fake: on.fake };
}

beforeEach(() => {
  ledgerBefore = new Set();
});
afterEach(async () => {
  const sharedWorlds = await Promise.all(shared.values());
  if (w && sharedWorlds.some((on) => on.world === w)) await tidy(w);
  else await w?.close();
  w = undefined;
});
afterAll(async () => {
  for (const on of await Promise.all(shared.values())) await on.world.close();
});

const SPENT = /This server's AI budget for today is spent; it resets at midnight UTC \(in (\d+ h )?\d+ min\)\./;

/** The bot on one provider's wire fake, with a daily token budget per server (0: unlimited). */
function configFor(provider: 'openai' | 'anthropic', baseURL: string, dailyTokenBudget: number): LlmConfig {
  return {
    ...OFFLINE,
    provider,
    [provider]: { apiKey: 'test-key', baseURL, model: `${provider}-test-model` },
    timeoutMs: 5000,
    dailyTokenBudget,
  };
}

const persona = (user: string, subcommand: string, options: Record<string, OptionValue> = {}, where = 'game') =>
  w!.sim.user(user).slash(where, 'persona', { subcommand, options });

/** A profile draft as the model sends it: the profile without its name. */
function draft(over: Record<string, unknown> = {}) {
  const { identity, playStyle, ...rest } = profile();
  return { background: identity.background, coreTraits: identity.coreTraits, ...playStyle, ...rest, ...over };
}

/** Tokens the server spent earlier today, in the ledger before the bot first reads it. */
async function spentEarlier(world: World, tokens: number): Promise<void> {
  await createLlmCallStore(world.db.prisma).record(ledgerRow(tokens, { guildId: world.sim.guild().id, gameId: 'earlier-game' }));
}

/** Every ledger row this test's calls wrote, oldest first. */
const rows = async (world: World) =>
  (await world.db.prisma.llmCall.findMany({ orderBy: { createdAt: 'asc' } }))
    .filter((row) => row.gameId !== 'earlier-game' && !ledgerBefore.has(row.id))
    .map(({ id: _id, createdAt: _at, ...row }) => row);

/** About 14,000 characters over four form inputs: two chunks for the profiler, then a merge. */
const LONG_BIO = Array.from({ length: 4 }, (_, k) =>
  Array.from({ length: 4 }, (_, p) =>
    `Part ${k + 1}.${p + 1}. Augusta Ada King, Countess of Lovelace, wrote about the Analytical Engine. `.repeat(10).trim(),
  ).join('\n\n'),
);

describe('/persona create on the server’s budget (OpenAI wire)', () => {
  it('GIVEN a long biography and a merge that breaks a limit WHEN alice creates a persona THEN each profiler call (two chunks, the merge, its re-ask) is an LlmCall row of this server', async () => {
    const usage = { input: 1200, output: 300, cached: 100 };
    const { w, fake } = await onBudget('plenty');
    fake.enqueue(...[draft(), draft(), draft({ voice: 'Too short.' }), draft()].map((d) => reply.structured(d, { usage })));
    const modal = await persona('alice', 'create', { name: 'Ada Lovelace' }).modal();
    const created = await w.sim
      .user('alice')
      .submitModal(modal.custom_id, Object.fromEntries(LONG_BIO.map((text, k) => [`bio${k + 1}`, text])))
      .ephemeral();
    expect(messageText(created)).toMatch(/^Created \*\*Ada Lovelace\*\*\. Try it/);
    expect(fake.requests).toHaveLength(4);
    const calls = await rows(w);
    expect(calls).toHaveLength(4);
    for (const call of calls) {
      expect(call).toMatchObject({
        guildId: w.sim.guild().id,
        gameId: null,
        playerId: null,
        personaId: null,
        userId: w.sim.user('alice').id,
        purpose: 'profile',
        provider: 'openai',
        model: 'openai-test-model',
      });
      expect(call).toMatchObject({ inputTokens: 1200, outputTokens: 300, cachedInputTokens: 100, ok: true, errorKind: null });
    }
  });

  it('GIVEN the server’s budget is spent WHEN alice creates a persona THEN nothing reaches the model, she is told when it resets, and the persona is built offline', async () => {
    const { w, fake } = await onBudget('spent');
    const created = await persona('alice', 'create', {
      name: 'Ada Lovelace',
      text: 'Ada Lovelace was a mathematician. She said "Imagination is the discovering faculty."',
    }).ephemeral();
    expect(created.flags & 64).toBe(64);
    expect(messageText(created)).toMatch(
      /^Created \*\*Ada Lovelace\*\* \(built offline: play style and tactics are generic\)\. This server's AI budget/,
    );
    expect(messageText(created)).toMatch(SPENT);
    expect(fake.requests).toHaveLength(0);
    expect(await rows(w)).toEqual([]);
    const stored = await w.db.prisma.persona.findFirst({ where: { name: 'Ada Lovelace' } });
    expect(stored?.notes).toMatch(/AI budget for the day was spent/);
  });

  it('GIVEN a budget the first chunk spends WHEN the profiler would call again THEN it stops there, one row is recorded, and the persona is built offline', async () => {
    const fake = await startFakeOpenAi([reply.structured(draft(), { usage: { input: 900, output: 200 } })]);
    w = await startWorld({ llm: configFor('openai', fake.baseURL, 1000), model: fake });
    const modal = await persona('alice', 'create', { name: 'Ada Lovelace' }).modal();
    const created = await w.sim
      .user('alice')
      .submitModal(modal.custom_id, Object.fromEntries(LONG_BIO.map((text, k) => [`bio${k + 1}`, text])))
      .ephemeral();
    expect(messageText(created)).toMatch(SPENT);
    expect(fake.requests).toHaveLength(1);
    expect(await rows(w)).toEqual([expect.objectContaining({ purpose: 'profile', inputTokens: 900, outputTokens: 200 })]);
  });
});

describe('/persona import on the server’s budget (OpenAI wire)', () => {
  const CARD = {
    spec: 'chara_card_v2',
    spec_version: '2.0',
    data: {
      name: 'Captain Mirelle Vance',
      description: '{{char}} is the disgraced captain of the airship Kestrel. She trusts nobody who smiles too easily.',
      personality: 'suspicious, dry-witted, loyal to her crew',
      scenario: '',
      first_mes: '"Name. Now."',
      mes_example: '',
      creator_notes: '',
      system_prompt: '',
      post_history_instructions: '',
      alternate_greetings: [],
      tags: ['airship'],
      creator: 'skyforge',
      character_version: '1.0',
      extensions: {},
    },
  };
  const file = { filename: 'mirelle.json', content: Buffer.from(JSON.stringify(CARD)) };

  it('GIVEN a model WHEN bob imports a card THEN the profiler’s call is a card_import row of this server', async () => {
    const { w, fake } = await onBudget('plenty');
    fake.enqueue(reply.structured(draft(), { usage: { input: 400, output: 80 } }));
    const imported = messageText(await persona('bob', 'import', { file }).ephemeral());
    expect(imported).toMatch(/^Imported \*\*Captain Mirelle Vance\*\* from a V2 character card\.\n/);
    expect(imported).not.toContain('⚠️');
    expect(await rows(w)).toEqual([
      expect.objectContaining({
        guildId: w.sim.guild().id,
        personaId: null,
        userId: w.sim.user('bob').id,
        purpose: 'card_import',
        inputTokens: 400,
        outputTokens: 80,
        ok: true,
      }),
    ]);
  });

  it('GIVEN the server’s budget is spent WHEN bob imports a card THEN nothing reaches the model and the warning says the budget is spent and when it resets', async () => {
    const { w, fake } = await onBudget('spent');
    const imported = messageText(await persona('bob', 'import', { file }).ephemeral());
    expect(imported).toMatch(/^Imported \*\*Captain Mirelle Vance\*\*/);
    expect(imported).toMatch(SPENT);
    expect(imported).toContain('The role tactics and play style are generic');
    expect(fake.requests).toHaveLength(0);
    expect(await rows(w)).toEqual([]);
  });
});

describe('/persona test on the server’s budget (OpenAI wire)', () => {
  const situation = 'Carol accuses you of being Mafia.';
  const holmesId = async (world: World) => (await world.db.prisma.persona.findFirst({ where: { name: 'Sherlock Holmes' } }))!.id;

  it('GIVEN a model WHEN bob tests Holmes in the server THEN one persona_test row names the server and Holmes', async () => {
    const { w, fake } = await onBudget('plenty');
    fake.enqueue(reply.text('Elementary, Carol.', { usage: { input: 350, output: 12 } }));
    const answer = await persona('bob', 'test', { persona: 'Sherlock Holmes', situation }).ephemeral();
    expect((answer.embeds[0] as { description: string }).description).toBe('Elementary, Carol.');
    expect(await rows(w)).toEqual([
      expect.objectContaining({
        guildId: w.sim.guild().id,
        gameId: null,
        playerId: null,
        personaId: await holmesId(w),
        userId: w.sim.user('bob').id,
        purpose: 'persona_test',
        inputTokens: 350,
        outputTokens: 12,
        ok: true,
      }),
    ]);
  });

  it('GIVEN the server’s budget is spent WHEN bob tests Holmes THEN nothing reaches the model and Holmes answers offline with a note saying when the budget resets', async () => {
    const { w, fake } = await onBudget('spent');
    const answer = await persona('bob', 'test', { persona: 'Sherlock Holmes', situation }).ephemeral();
    expect(answer.flags & 64).toBe(64);
    expect(messageText(answer)).toMatch(SPENT);
    const embed = answer.embeds[0] as { description: string; footer: { text: string } };
    expect(embed.description).toContain('Carol');
    expect(embed.footer.text).toMatch(/Answered offline \(an AI budget for today is spent\)/);
    expect(fake.requests).toHaveLength(0);
    expect(await rows(w)).toEqual([]);
  });

  it('GIVEN a model WHEN alice tests Holmes in a DM THEN the call is recorded with guild null', async () => {
    const { w, fake } = await onBudget('plenty');
    fake.enqueue(reply.text('Elementary.'));
    await persona('alice', 'test', { persona: 'Sherlock Holmes', situation }, 'dm').ephemeral();
    expect(await rows(w)).toEqual([
      expect.objectContaining({ guildId: null, personaId: await holmesId(w), purpose: 'persona_test', ok: true }),
    ]);
  });
});

describe('the editor’s run_test on the server’s budget (Anthropic wire)', () => {
  const lastBotMessage = (world: World, thread: { id: string }): SimMessage =>
    world.sim
      .messagesIn(thread)
      .filter((m) => m.authorId === world.client.user.id)
      .at(-1)!;

  /** Alice's persona Ada, its editor open in a private thread, the editor and the games on the same fake. */
  async function editing(dailyTokenBudget: number): Promise<{ world: World; fake: FakeLlmServer; thread: { id: string }; adaId: string }> {
    const fake = await startFakeAnthropic();
    const provider = createAnthropicProvider({
      apiKey: 'test-key',
      baseURL: fake.baseURL,
      timeoutMs: 5_000,
      maxRetries: 0,
      logLevel: 'off',
    });
    const world = await startWorld({
      llm: configFor('anthropic', fake.baseURL, dailyTokenBudget),
      editorLlm: { provider, model: 'editor-model' },
      model: fake,
    });
    w = world;
    const created = await world.personas.create(
      { userId: world.sim.user('alice').id, guildId: null, canManageServer: false },
      { scope: { kind: 'private' }, content: content({}, 'Ada Lovelace') },
    );
    if (!created.ok) throw new Error(created.error.message);
    await world.sim
      .user('alice')
      .slash('other', 'persona', { subcommand: 'edit', options: { persona: created.value.id } })
      .reply();
    const thread = world.sim.threadsOf('other').find((t) => (t.name ?? '').includes('Ada Lovelace'))!;
    return { world, fake, thread, adaId: created.value.id };
  }

  async function ask(world: World, thread: { id: string }, text: string, until: string): Promise<void> {
    world.sim.user('alice').say(thread, text);
    await world.sim.until(() => messageText(lastBotMessage(world, thread)).includes(until));
    await world.bot.idle();
  }

  const RUN = reply.tool('run_test', { situation: { content: 'Bob says you were too quiet last night.', role: 'town' } });

  it('GIVEN a model WHEN the editor runs a test THEN the test call is an editor_test row of this server and Ada, beside the editor’s own rows', async () => {
    const { world, fake, thread, adaId } = await editing(100_000);
    fake.enqueue(RUN, reply.text('I was listening, Bob.', { usage: { input: 300, output: 15 } }), reply.text('She holds her ground.'));
    await ask(world, thread, 'Test her on being quiet.', 'She holds her ground.');
    expect(fake.requests.filter((r) => !r.stream)).toHaveLength(1);
    const guildId = world.sim.guild().id;
    await vi.waitFor(async () => expect(await rows(world)).toHaveLength(3));
    const calls = await rows(world);
    expect(calls.filter((c) => c.purpose === 'editor_test')).toEqual([
      expect.objectContaining({
        guildId,
        userId: world.sim.user('alice').id,
        personaId: adaId,
        gameId: null,
        playerId: null,
        provider: 'anthropic',
        model: 'anthropic-test-model',
        inputTokens: 300,
        outputTokens: 15,
        ok: true,
      }),
    ]);
    expect(calls.filter((c) => c.purpose === 'editor')).toEqual([
      expect.objectContaining({ guildId, userId: world.sim.user('alice').id, personaId: adaId, model: 'editor-model' }),
      expect.objectContaining({ guildId, userId: world.sim.user('alice').id, personaId: adaId, model: 'editor-model' }),
    ]);
  });

  it('GIVEN the editor’s first call spends the budget WHEN it runs a test THEN no test call reaches the model and run_test returns an error the editor relays', async () => {
    const { world, fake, thread } = await editing(1000);
    fake.enqueue({ ...RUN, usage: { input: 1100, output: 20 } }, reply.text('The server’s AI budget is spent until midnight UTC.'));
    await ask(world, thread, 'Test her on being quiet.', 'budget is spent until midnight UTC');
    expect(fake.requests.filter((r) => !r.stream)).toHaveLength(0);
    const [result] = fake.last.toolResults;
    expect(result?.isError).toBe(true);
    expect(result?.text).toMatch(SPENT);
    expect(result?.text).toContain('The test was not run; nothing was sent to the model.');
    expect(messageText(lastBotMessage(world, thread))).toContain('🔧 run_test ✗');
    await vi.waitFor(async () => expect((await rows(world)).map((c) => c.purpose)).toEqual(['editor', 'editor']));
  });
});

describe('each person’s own daily budget, across servers and DMs (OpenAI wire)', () => {
  const situation = 'Carol accuses you of being Mafia.';
  const MINE =
    /Your own AI budget for today \(what you ask of the AI in every server and in DMs\) is spent; it resets at midnight UTC \(in (\d+ h )?\d+ min\)\./;

  it('GIVEN alice’s own budget of 1,000 tokens and servers with plenty WHEN she spends it testing Holmes in the Club and then in DMs THEN her test in a second server is refused: nothing reaches the model, she alone is told it is her budget and when it resets, and bob still gets a real answer', async () => {
    const fake = await startFakeOpenAi();
    w = await startWorld({ llm: { ...configFor('openai', fake.baseURL, 100_000), userDailyTokenBudget: 1000 }, model: fake });
    // A second server alice and bob are members of, its commands routed like the Club's.
    w.sim.addGuild({ name: 'Annex', channels: ['lounge'], members: ['alice', 'bob'] });
    const alice = w.sim.user('alice').id;
    fake.enqueue(
      reply.text('Elementary, Carol.', { usage: { input: 550, output: 50 } }),
      reply.text('Quite.', { usage: { input: 550, output: 50 } }),
    );
    await persona('alice', 'test', { persona: 'Sherlock Holmes', situation }).ephemeral();
    await persona('alice', 'test', { persona: 'Sherlock Holmes', situation }, 'dm').ephemeral();
    expect((await rows(w)).map((r) => [r.guildId, r.userId])).toEqual([
      [w.sim.guild().id, alice],
      [null, alice],
    ]);

    const refused = await persona('alice', 'test', { persona: 'Sherlock Holmes', situation }, 'lounge').ephemeral();

    expect(refused.flags & 64).toBe(64);
    expect(messageText(refused)).toMatch(MINE);
    expect(fake.requests).toHaveLength(2);
    expect(await rows(w)).toHaveLength(2);
    fake.enqueue(reply.text('Bob, really.', { usage: { input: 10, output: 5 } }));
    const bobs = await persona('bob', 'test', { persona: 'Sherlock Holmes', situation }, 'lounge').ephemeral();
    expect((bobs.embeds[0] as { description: string }).description).toBe('Bob, really.');
  });

  it('GIVEN alice spent her own budget in DMs WHEN she creates a persona and imports a card in the server THEN both are built offline, saying it is her budget, and no call is made', async () => {
    const fake = await startFakeOpenAi();
    w = await startWorld({ llm: { ...configFor('openai', fake.baseURL, 100_000), userDailyTokenBudget: 500 }, model: fake });
    fake.enqueue(reply.text('Elementary.', { usage: { input: 500, output: 10 } }));
    await persona('alice', 'test', { persona: 'Sherlock Holmes', situation }, 'dm').ephemeral();

    const created = await persona('alice', 'create', { name: 'Ada Lovelace', text: 'Ada Lovelace was a mathematician.' }).ephemeral();
    const card = { spec: 'chara_card_v2', spec_version: '2.0', data: { name: 'Mirelle', description: 'A captain.', extensions: {} } };
    const imported = await persona('alice', 'import', {
      file: { filename: 'mirelle.json', content: Buffer.from(JSON.stringify(card)) },
    }).ephemeral();

    expect(messageText(created)).toMatch(/^Created \*\*Ada Lovelace\*\* \(built offline/);
    expect(messageText(created)).toMatch(MINE);
    expect(messageText(imported)).toMatch(MINE);
    expect(fake.requests).toHaveLength(1);
    expect((await rows(w)).map((r) => r.purpose)).toEqual(['persona_test']);
  });

  it('GIVEN a server dollar budget of one cent and a dear model WHEN bob tests Holmes twice THEN the cent runs out long before the tokens, and the second test says the server’s budget is spent', async () => {
    const fake = await startFakeOpenAi();
    const llm: LlmConfig = {
      ...configFor('openai', fake.baseURL, 1_000_000),
      openai: { apiKey: 'test-key', baseURL: fake.baseURL, model: 'gpt-6.1-sol' },
      serverDailyDollarBudget: 0.01,
    };
    w = await startWorld({ llm, model: fake });
    // gpt-6.1-sol: $2 a million input tokens, $10 output: 4,000 in and 500 out cost $0.013.
    fake.enqueue(reply.text('Elementary.', { usage: { input: 4000, output: 500 } }));
    await persona('bob', 'test', { persona: 'Sherlock Holmes', situation }).ephemeral();
    const second = await persona('bob', 'test', { persona: 'Sherlock Holmes', situation }).ephemeral();

    expect(messageText(second)).toMatch(SPENT);
    expect(fake.requests).toHaveLength(1);
    const [row] = await rows(w);
    expect(row?.costUsd?.toNumber()).toBeCloseTo(0.013, 6);
  });
});
