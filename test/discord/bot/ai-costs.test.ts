import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BUDGET_NOTICE as BUDGET_NOTICE_TEXT } from '../../../src/agents/driver/notices.ts';
import type { LlmConfig } from '../../../src/config.ts';
import { createLlmCallStore } from '../../../src/db/llm-call-store.ts';
import type { LiveGame } from '../../../src/discord/live-game.ts';
import { reply, type FakeHandler, type FakeLlmServer } from '../../../scripts/fakes/llm/fake-llm-server.ts';
import { startFakeOpenAi } from '../../../scripts/fakes/llm/fake-openai.ts';
import { playingModel, seatNameOf } from '../../../scripts/fakes/llm/playing-model.ts';
import { startTestWorld, startWorld, type World } from './harness.ts';
import { houseOpenAi } from '../../support/llm-config.ts';
import { fromNow, tidy } from './shared-world.ts';

/**
 * The deal of every game here: alice is the Mafia (nobody plays her moves, so nobody dies at
 * night), Ada the Doctor and Poirot the Detective, so both AI seats live to make their calls. A
 * random deal made the tests flaky: an AI Mafia sometimes killed the other AI seat on night 1,
 * before it had made a single call.
 */
const SEED = 5;

/** The world on OpenAI without a budget, shared by the tests that need no other: its fake reset (and given its script) by each, its games and personas gone after. */
let unlimited: { world: World; fake: FakeLlmServer };
beforeAll(async () => {
  const fake = await startFakeOpenAi();
  unlimited = { fake, world: await startWorld({ llm: openAi(fake.baseURL, 0), model: fake, seed: SEED }) };
});
afterAll(() => unlimited.world.close());
afterEach(() => tidy(unlimited.world));

/** The unlimited world, its fake answering with `script` from now on. */
function onUnlimited(script: FakeHandler): { world: World; fake: FakeLlmServer } {
  unlimited.fake.reset().handle(script);
  return unlimited;
}

/** The operator allows Ada's own model unless a test says otherwise (ALLOWED_MODELS). */
function openAi(baseURL: string, dailyTokenBudget: number, allowedModels: readonly string[] = ['gpt-ada']): LlmConfig {
  return houseOpenAi(baseURL, { dailyTokenBudget, allowedModels });
}

async function settle(world: World, liveGame: LiveGame): Promise<void> {
  for (let i = 0; i < 4; i++) {
    await world.bot.idle();
    await liveGame.driver?.idle();
  }
  await world.bot.idle();
}

/** A copy of Sherlock Holmes named Ada Lovelace that prefers the model `gpt-ada`, usable in the simulated server. */
async function adaPrefersItsOwnModel(world: World): Promise<void> {
  const actor = { userId: world.sim.user('alice').id, guildId: world.sim.guild().id, canManageServer: true };
  const source = await world.personas.getByName(actor, 'Sherlock Holmes');
  if (!source.ok) throw new Error(source.error.message);
  const { profile, avatarUrl, tags, notes, parts, traits, arc, card } = source.value;
  const created = await world.personas.create(actor, {
    scope: { kind: 'server', guildId: world.sim.guild().id },
    content: {
      profile: { ...profile, identity: { ...profile.identity, name: 'Ada Lovelace' } },
      avatarUrl,
      model: { model: 'gpt-ada' },
      tags,
      notes,
      parts,
      traits,
      arc,
      card,
    },
  });
  if (!created.ok) throw new Error(created.error.message);
  const read = await world.personas.get(actor, created.value.id);
  expect(read.ok && read.value.model).toEqual({ model: 'gpt-ada' });
}

async function startGame(world: World): Promise<LiveGame> {
  const lobby = await world.sim.user('alice').slash('game', 'mafia', { subcommand: 'create', options: {} }).public();
  const liveGame = world.bot.liveGames.live[0]!;
  for (const name of ['bob', 'carol']) await world.sim.user(name).click(lobby, `lobby:join:${liveGame.state.id}`).updated();
  for (const persona of ['Ada Lovelace', 'Hercule Poirot'])
    await world.sim.user('alice').slash('game', 'mafia', { subcommand: 'add-ai', options: { persona } }).ephemeral();
  await world.sim.user('alice').click(lobby, `lobby:start:${liveGame.state.id}`).updated();
  await world.sim.until(() => liveGame.driver !== null);
  await settle(world, liveGame);
  // The deal SEED stands for.
  expect(Object.fromEntries(liveGame.state.players.map((p) => [p.name, p.role]))).toMatchObject({
    alice: 'mafia',
    'Ada Lovelace': 'doctor',
    'Hercule Poirot': 'detective',
  });
  return liveGame;
}

async function nextPhase(world: World, liveGame: LiveGame): Promise<void> {
  const { phase, day, deadline } = liveGame.state;
  world.timers.advanceTo(deadline!);
  await world.sim.until(() => liveGame.state.phase !== phase || liveGame.state.day !== day, { timeoutMs: 10_000 });
  await settle(world, liveGame);
}

describe('AI seats on a model, on the bot', () => {
  it("GIVEN OpenAI is configured and Ada prefers gpt-ada WHEN the AI seats play THEN Ada's calls ask for gpt-ada, Poirot's for the house model, and every call is an LlmCall row of this server and game", async () => {
    const { world: w, fake } = onUnlimited(playingModel({ usage: { input: 300, output: 20 } }));
    await adaPrefersItsOwnModel(w);
    const liveGame = await startGame(w);
    for (let i = 0; i < 3 && liveGame.state.phase !== 'ended'; i++) await nextPhase(w, liveGame);

    const decisions = fake.requests.filter((r) => r.system.includes('(seat '));
    const bySeat = (name: string) => new Set(decisions.filter((r) => seatNameOf(r) === name).map((r) => r.model));
    expect([...bySeat('Ada Lovelace')]).toEqual(['gpt-ada']);
    expect([...bySeat('Hercule Poirot')]).toEqual(['gpt-house']);

    const rows = await createLlmCallStore(w.db.prisma).forGame(liveGame.state.id);
    expect(rows.length).toBe(fake.requests.length);
    expect(rows.every((r) => r.guildId === w.sim.guild().id && r.ok)).toBe(true);
    const ada = liveGame.state.players.find((p) => p.name === 'Ada Lovelace')!;
    expect(
      rows.filter((r) => r.playerId === ada.id).every((r) => r.model === 'gpt-ada' && r.inputTokens === 300 && r.outputTokens === 20),
    ).toBe(true);
  });

  it('GIVEN Ada prefers gpt-ada, which the operator does not allow WHEN the game starts THEN Ada plays on the house model, no call names gpt-ada, and the channel is told once why', async () => {
    const fake = await startFakeOpenAi(playingModel({ usage: { input: 300, output: 20 } }));
    const w = await startTestWorld({ llm: openAi(fake.baseURL, 0, []), model: fake, seed: SEED });
    await adaPrefersItsOwnModel(w);
    const liveGame = await startGame(w);
    for (let i = 0; i < 2 && liveGame.state.phase !== 'ended'; i++) await nextPhase(w, liveGame);

    expect(fake.requests.length).toBeGreaterThan(0);
    expect(fake.requests.every((r) => r.model === 'gpt-house')).toBe(true);
    const told =
      "Ada Lovelace's persona names the model gpt-ada, which this bot does not allow (ALLOWED_MODELS): Ada Lovelace plays on gpt-house instead.";
    expect(liveGame.state.log.filter((e) => e.type === 'notice' && e.payload.text === told)).toHaveLength(1);
    expect(w.sim.messagesIn('game').filter((m) => m.content.includes(told))).toHaveLength(1);
  });

  it('GIVEN a daily budget of 1,000 tokens WHEN it is spent THEN the seats go on with the offline brain, no more calls are made, and the table is told once', async () => {
    const fake = await startFakeOpenAi(playingModel({ usage: { input: 400, output: 100 } }));
    const w = await startTestWorld({ llm: openAi(fake.baseURL, 1000), model: fake, seed: SEED });
    await adaPrefersItsOwnModel(w);
    const liveGame = await startGame(w);
    for (let i = 0; i < 2 && liveGame.state.phase !== 'ended'; i++) await nextPhase(w, liveGame);
    const spent = fake.requests.length;
    expect(spent).toBeGreaterThanOrEqual(2);
    for (let i = 0; i < 3 && liveGame.state.phase !== 'ended'; i++) await nextPhase(w, liveGame);
    // Calls already under way when the budget ran out may finish; none start after.
    expect(fake.requests.length).toBe(spent);

    const notices = liveGame.state.log.filter((e) => e.type === 'notice' && e.payload.text === BUDGET_NOTICE_TEXT);
    expect(notices).toHaveLength(1);
    expect(w.sim.messagesIn('game').filter((m) => m.content.includes(BUDGET_NOTICE_TEXT))).toHaveLength(1);
    const rows = await createLlmCallStore(w.db.prisma).forGame(liveGame.state.id);
    expect(rows.length).toBe(spent);
  });

  it('GIVEN alice’s own daily budget of 100 tokens and a server with no limit WHEN the AI seats of her game play THEN they play on the model past it (the server pays, not the host), no row names her, and her own /persona test still reaches the model', async () => {
    const fake = await startFakeOpenAi(playingModel({ usage: { input: 400, output: 100 } }));
    const w = await startTestWorld({ llm: houseOpenAi(fake.baseURL, { userDailyTokenBudget: 100 }), model: fake, seed: SEED });
    await adaPrefersItsOwnModel(w);
    const liveGame = await startGame(w);
    for (let i = 0; i < 2 && liveGame.state.phase !== 'ended'; i++) await nextPhase(w, liveGame);

    const rows = await createLlmCallStore(w.db.prisma).forGame(liveGame.state.id);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows.every((r) => r.userId === null && r.guildId === w.sim.guild().id)).toBe(true);
    expect(liveGame.state.log.some((e) => e.type === 'notice' && e.payload.text === BUDGET_NOTICE_TEXT)).toBe(false);
    const before = fake.requests.length;
    fake.reset().enqueue(reply.text('Elementary.', { usage: { input: 50, output: 5 } }));
    await w.sim
      .user('alice')
      .slash('other', 'persona', { subcommand: 'test', options: { persona: 'Sherlock Holmes', situation: 'Bob accuses you.' } })
      .ephemeral();
    expect(fake.requests).toHaveLength(1);
    expect(before).toBeGreaterThan(0);
    const own = await w.db.prisma.llmCall.findMany({ where: { userId: w.sim.user('alice').id } });
    expect(own.map((r) => r.purpose)).toEqual(['persona_test']);
  });

  it('GIVEN Ada prefers gpt-ada, which OpenAI no longer serves WHEN the AI seats play THEN the channel reads one line naming the persona setting, the host gets it once by DM, the log names the model once, and Poirot plays on the house model', async () => {
    const gone = reply.status(404, 'The model `gpt-ada` does not exist or you do not have access to it.');
    const { world, fake } = onUnlimited(
      playingModel({ usage: { input: 300, output: 20 }, override: (r) => (r.model === 'gpt-ada' ? gone : undefined) }),
    );
    // What this test's game posts and DMs (earlier tests' games in this world posted too).
    const channel = fromNow(() => world.sim.messagesIn('game'));
    const dmsToAlice = fromNow(() => world.sim.dmsTo('alice'));
    await adaPrefersItsOwnModel(world);
    const liveGame = await startGame(world);
    for (let i = 0; i < 3 && liveGame.state.phase !== 'ended'; i++) await nextPhase(world, liveGame);

    const line = "Ada Lovelace's persona asks for the model `gpt-ada`, which OpenAI does not serve (retired or unknown)";
    await world.sim.until(() => dmsToAlice().some((m) => m.content.includes(line)));
    expect(channel().filter((m) => m.content.includes(line))).toHaveLength(1);
    expect(channel().find((m) => m.content.includes(line))?.content).toContain("change the persona's model (`/persona edit`)");
    expect(channel().some((m) => m.content.includes('does not exist'))).toBe(false);
    const dms = dmsToAlice().filter((m) => m.content.includes(line));
    expect(dms).toHaveLength(1);
    expect(dms[0]!.content).toMatch(/^In your Mafia game in <#\d+>: /);
    expect(world.log.warnings.filter((m) => m.includes('does not serve the model gpt-ada'))).toHaveLength(1);
    expect(world.log.warnings.find((m) => m.includes('gpt-ada'))).toContain(
      "Change the persona's model (`/persona edit`) to a current model",
    );
    const poirot = fake.requests.filter((r) => r.system.includes('(seat ') && seatNameOf(r) === 'Hercule Poirot');
    expect(poirot.length).toBeGreaterThan(0);
    expect(poirot.every((r) => r.model === 'gpt-house')).toBe(true);
  });
});
