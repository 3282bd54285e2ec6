/** People edit and delete what they said; what the game keeps, shows the AI players and publishes follows them. */
import { afterEach, describe, expect, it } from 'vitest';
import { houseOpenAi } from '../../support/llm-config.ts';
import type { LiveGame } from '../../../src/discord/live-game.ts';
import { isMafia } from '../../../src/game/index.ts';
import { messageText } from '../../../scripts/fakes/discord/index.ts';
import type { FakeLlmServer, FakeRequest } from '../../../scripts/fakes/llm/fake-llm-server.ts';
import { startFakeOpenAi } from '../../../scripts/fakes/llm/fake-openai.ts';
import { playingModel, seatNameOf } from '../../../scripts/fakes/llm/playing-model.ts';
import { startWorld, type World } from './harness.ts';
import { AI, openGame, seated, seedWhere, settle, toNextPhase } from './playing.ts';

let w: World | undefined;
let fake: FakeLlmServer | undefined;
afterEach(async () => {
  await w?.close();
  await fake?.close();
  w = undefined;
  fake = undefined;
});

/** A game of AI seats on a model, pictures drawn at its end: on a loaded machine its steps take a while. */
const SLOW = 20_000;

/** Everything a model read of one request. */
const promptOf = (r: FakeRequest): string => [r.system, ...r.transcript.map((t) => t.text)].join('\n');

/** The words, stored or published, of everything the bot keeps about a game: its stored events, its director's cut files. */
async function everythingKept(world: World, gameId: string): Promise<string> {
  const files = world.sim
    .messagesIn('game')
    .flatMap((m) => m.attachments)
    .filter((a) => a.filename.includes(gameId))
    .map((a) => a.data.toString('utf8'));
  return [JSON.stringify(await world.games.loadEvents(gameId)), ...files].join('\n');
}

/** As `openGame`, on a loaded machine: AI seats on a model take longer to seat. */
async function openLlmGame(world: World): Promise<LiveGame> {
  const lobby = await world.sim.user('alice').slash('game', 'mafia', { subcommand: 'create' }).public();
  const liveGame = world.bot.liveGames.live[0]!;
  for (const name of ['bob', 'carol']) await world.sim.user(name).click(lobby, `lobby:join:${liveGame.state.id}`).updated();
  for (const persona of AI)
    await world.sim.user('alice').slash('game', 'mafia', { subcommand: 'add-ai', options: { persona } }).ephemeral();
  await world.sim.user('alice').click(lobby, `lobby:start:${liveGame.state.id}`).updated();
  await world.sim.until(() => liveGame.driver !== null && liveGame.mafiaThreadId !== null, {
    timeoutMs: SLOW,
    description: 'the AI seated',
  });
  await settle(world, liveGame);
  return liveGame;
}

/** Plays the game's clock to its end by `/mafia end`, with the director's cut posted. */
async function endGame(world: World, liveGame: LiveGame): Promise<void> {
  await world.sim.user('alice').slash('game', 'mafia', { subcommand: 'end' }).reply();
  await world.sim.until(() => liveGame.state.phase === 'ended', { timeoutMs: SLOW, description: 'the game ended' });
  await settle(world, liveGame);
  await world.sim.until(() => world.sim.messagesIn('game').some((m) => m.attachments.some((a) => a.filename.startsWith('replay-'))), {
    timeoutMs: SLOW,
    description: "the director's cut with its replay",
  });
}

const CLAIM = 'I am the Detective and Sherlock Holmes is Mafia';
const CORRECTED = 'I am the Doctor and Sherlock Holmes is Mafia';
const SECRET = 'My wife is home alone tonight, come by';

describe('what people edit and delete by day', () => {
  it('GIVEN AI seats that read alice’s day claim WHEN she edits it and deletes another message THEN their next prompts show the new words marked (edited) with a note, the placeholder for the deleted one, and the stored events, director’s cut and replay keep neither withdrawn text', async () => {
    fake = await startFakeOpenAi();
    w = await startWorld({ llm: houseOpenAi(fake.baseURL, { maxToolRounds: 0 }), seed: 6 }); // alice lives through night 1 at this seed's table
    // The day's speeches wait until alice has spoken, so the AI seats that speak after her read her.
    let aliceSpoke!: () => void;
    const afterAlice = new Promise<void>((resolve) => (aliceSpoke = resolve));
    const playing = playingModel();
    fake.handle(async (request) => {
      if (promptOf(request).includes('# Your task: Speak')) await afterAlice;
      return playing(request);
    });
    const liveGame = await openLlmGame(w);
    const alice = seated(liveGame.state, 'alice');
    // Not settled on the way: the day's first speech waits for alice.
    while (liveGame.state.phase !== 'day') {
      const { phase, deadline } = liveGame.state;
      w.timers.advanceTo(deadline!);
      await w.sim.until(() => liveGame.state.phase !== phase, { timeoutMs: SLOW, description: `the end of ${phase}` });
    }
    if (!seated(liveGame.state, 'alice').alive) return expect.fail('alice died in the night of this seed; pick another seed');

    const claim = w.sim.user('alice').say('game', CLAIM);
    const secret = w.sim.user('alice').say('game', SECRET);
    const said = () => liveGame.state.log.filter((e) => e.type === 'speech' && e.payload.playerId === alice.id).length;
    await w.sim.until(() => said() === 2, { timeoutMs: SLOW, description: "alice's two messages taken" });
    aliceSpoke();
    await settle(w, liveGame);
    const readers = new Set(fake.requests.filter((r) => promptOf(r).includes(CLAIM)).map(seatNameOf));
    expect(readers.size).toBeGreaterThan(0);

    w.sim.user('alice').edit(claim, CORRECTED);
    w.sim.user('alice').deleteMessage(secret);
    await w.sim.until(() => liveGame.state.log.some((e) => e.type === 'speech_deleted'), {
      timeoutMs: SLOW,
      description: 'the deletion taken',
    });
    await settle(w, liveGame);
    const before = fake.requests.length;
    const { deadline: dayEnds } = liveGame.state;
    w.timers.advanceTo(dayEnds!);
    await w.sim.until(() => liveGame.state.phase === 'vote', { timeoutMs: SLOW, description: 'the vote' });
    await settle(w, liveGame);
    const after = fake.requests.slice(before);
    expect(after.length).toBeGreaterThan(0);

    for (const request of after) {
      const prompt = promptOf(request);
      expect(prompt).not.toContain(CLAIM);
      expect(prompt).not.toContain(SECRET);
      expect(prompt).toContain(`<speech player="alice">${CORRECTED}</speech> (edited)`);
      expect(prompt).toContain('[deleted] alice: (a message was deleted)');
    }
    let told = 0;
    for (const reader of readers) {
      const next = after.find((r) => seatNameOf(r) === reader);
      if (!next) continue;
      told++;
      expect(promptOf(next)).toContain('- alice edited a message you had read: it now reads as marked (edited).');
      expect(promptOf(next)).toContain('- alice deleted a message you had read: its words are withdrawn; do not quote or rely on them.');
    }
    expect(told).toBeGreaterThan(0);

    await endGame(w, liveGame);
    const kept = await everythingKept(w, liveGame.state.id);
    expect(kept).not.toContain(CLAIM);
    expect(kept).not.toContain(SECRET);
    expect(kept).toContain(`alice: ${CORRECTED} (edited)`);
    expect(kept).toContain('alice: (a message was deleted)');
  });
});

describe('edits after their phase, purges, and deletions after the game', () => {
  it('GIVEN alice’s day message WHEN she edits it once the vote has begun THEN the game keeps what she said and tells her once, by DM, that deleting withdraws it', async () => {
    w = await startWorld({ seed: 3 });
    const liveGame = await openGame(w);
    while (liveGame.state.phase !== 'day') await toNextPhase(w, liveGame);
    const said = w.sim.user('alice').say('game', 'Bob is suspicious');
    await w.sim.until(() => liveGame.state.log.some((e) => e.type === 'speech' && e.payload.text === 'Bob is suspicious'));
    await toNextPhase(w, liveGame);
    expect(liveGame.state.phase).toBe('vote');

    w.sim.user('alice').edit(said, 'Carol is suspicious');
    w.sim.user('alice').edit(said, 'Carol is very suspicious');
    await w.sim.until(() => w!.sim.dmsTo('alice').some((m) => messageText(m).includes('after its phase ended')));
    await settle(w, liveGame);
    expect(liveGame.state.log.some((e) => e.type === 'speech' && e.payload.text === 'Bob is suspicious')).toBe(true);
    expect(liveGame.state.log.some((e) => e.type === 'speech_edited')).toBe(false);
    expect(w.sim.dmsTo('alice').filter((m) => messageText(m).includes('after its phase ended'))).toHaveLength(1);
  });

  it('GIVEN day messages of two people WHEN a moderator purges them with one bulk delete THEN both are withdrawn from the game', async () => {
    w = await startWorld({ seed: 3 });
    const liveGame = await openGame(w);
    while (liveGame.state.phase !== 'day') await toNextPhase(w, liveGame);
    const one = w.sim.user('alice').say('game', 'first rude line');
    const two = w.sim.user('bob').say('game', 'second rude line');
    await w.sim.until(() => liveGame.state.log.filter((e) => e.type === 'speech' && e.payload.text.includes('rude')).length === 2);
    w.sim.bulkDelete('game', [one, two]);
    await w.sim.until(() => liveGame.state.log.filter((e) => e.type === 'speech_deleted').length === 2);
    await settle(w, liveGame);
    expect(JSON.stringify(await w.games.loadEvents(liveGame.state.id))).not.toContain('rude');
  });

  it('GIVEN a game that has ended with its director’s cut posted WHEN alice deletes a message she said in it THEN its stored record no longer holds the words', async () => {
    w = await startWorld({ seed: 3 });
    const liveGame = await openGame(w);
    while (liveGame.state.phase !== 'day') await toNextPhase(w, liveGame);
    const said = w.sim.user('alice').say('game', 'a line I will regret');
    await w.sim.until(() => liveGame.state.log.some((e) => e.type === 'speech' && e.payload.text === 'a line I will regret'));
    await endGame(w, liveGame);
    expect(JSON.stringify(await w.games.loadEvents(liveGame.state.id))).toContain('a line I will regret');

    w.sim.user('alice').deleteMessage(said);
    await w.sim.until(async () => !JSON.stringify(await w!.games.loadEvents(liveGame.state.id)).includes('a line I will regret'));
    const events = await w.games.loadEvents(liveGame.state.id);
    expect(events.at(-1)?.type).toBe('speech_deleted');
  });

  it('GIVEN Mafia who chat by DM (no thread allowed) WHEN bob edits, then deletes his line THEN the copy carol got by DM is edited, then deleted, and the game keeps only the placeholder', async () => {
    w = await startWorld({ seed: seedWhere((roles) => isMafia(roles.bob) && isMafia(roles.carol)) });
    w.sim.fail({ method: 'POST', route: '/channels/:channelId/threads', status: 403, code: 50013 });
    const lobby = await w.sim.user('alice').slash('game', 'mafia', { subcommand: 'create' }).public();
    const liveGame = w.bot.liveGames.live[0]!;
    for (const name of ['bob', 'carol']) await w.sim.user(name).click(lobby, `lobby:join:${liveGame.state.id}`).updated();
    for (const persona of AI) await w.sim.user('alice').slash('game', 'mafia', { subcommand: 'add-ai', options: { persona } }).ephemeral();
    await w.sim.user('alice').click(lobby, `lobby:start:${liveGame.state.id}`).updated();
    await w.sim.until(() => w!.bot.liveGames.output.mafiaChatsByDm(liveGame.state.id));
    const copies = () => w!.sim.dmsTo('carol').filter((m) => messageText(m).startsWith('**bob (Mafia):**'));

    const line = w.sim.user('bob').dm('Kill the Doctor');
    await w.sim.until(() => copies().some((m) => messageText(m) === '**bob (Mafia):** Kill the Doctor'));
    w.sim.user('bob').edit(line, 'Kill the Detective');
    await w.sim.until(() => copies().some((m) => messageText(m) === '**bob (Mafia):** Kill the Detective (edited)'));
    w.sim.user('bob').deleteMessage(line);
    await w.sim.until(() => copies().length === 0);
    await settle(w, liveGame);
    expect(JSON.stringify(await w.games.loadEvents(liveGame.state.id))).not.toMatch(/Kill the (Doctor|Detective)/);
  });
});
