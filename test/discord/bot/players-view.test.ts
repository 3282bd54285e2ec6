/** What players read in the channel: each thing said once, and true. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LiveGame } from '../../../src/discord/live-game.ts';
import * as engine from '../../../src/game/index.ts';
import { ok, type Result } from '../../../src/result.ts';
import { messageText } from '../../../scripts/fakes/discord/index.ts';
import { startWorld, type World } from './harness.ts';
import { openGame, seated, seedWhere, settle, liveGameOf, voteMessageOf } from './playing.ts';
import { afterTest, fromNow, tidy } from './shared-world.ts';

const MISSING_PERMISSIONS = 50013;
/** What these tests wait for takes several Discord round trips: patient on a loaded machine. */
const PATIENT = { timeoutMs: 15_000 };
/** bob is a Townsperson: lynched on day 1, the game goes on. */
const SEED = seedWhere((roles) => roles.bob === 'townsperson' && roles.alice !== 'mafia' && roles.carol !== 'mafia');

/** One Mafia, an AI seat; the people are townspeople. */
const ONE_AI_MAFIA = { roles: 'mafia, townsperson x6' };
const ONE_AI_MAFIA_SEED = seedWhere((roles) => Object.values(roles).every((r) => r === 'townsperson'), 1, ONE_AI_MAFIA.roles);

let w: World;
let seed = SEED;
beforeAll(async () => {
  w = await startWorld({ seed: () => seed });
});
afterEach(async () => {
  seed = SEED;
  await tidy(w);
});
afterAll(() => w.close());

/** alice hosts, bob and carol join, the AI take seats, alice starts (nobody dies on night 1 unless `create` says so); nothing waits for a Mafia thread. */
function start(create: Record<string, string | boolean> = {}): Promise<LiveGame> {
  return openGame(w, { 'night-one-kill': false, ...create }, 'game', { mafiaThread: false, patience: PATIENT });
}

/** The clock jumps to the phase's deadline; returns once the next phase has begun and its output is out. */
async function nextPhase(liveGame: LiveGame): Promise<void> {
  await settle(w, liveGame);
  const { phase, day, deadline } = liveGame.state;
  if (phase === 'ended' || deadline === null) return;
  w.timers.advanceTo(deadline);
  await w.sim.until(() => liveGame.state.phase !== phase || liveGame.state.day !== day, PATIENT);
  await settle(w, liveGame);
}

/** The texts of the bot's own messages in #game from now on, as they read now (the vote message after its edits). */
function botSaysFromNow(): () => string[] {
  const posted = fromNow(() => w.sim.messagesIn('game'));
  return () =>
    posted()
      .filter((m) => m.authorId === w.sim.botUserId)
      .map(messageText);
}

/** Every living player turns on `name` in one command (the doomed votes last), so the vote closes on them at once. */
async function lynch(liveGame: LiveGame, name: string): Promise<void> {
  while (liveGame.state.phase !== 'vote') await nextPhase(liveGame);
  const doomed = seated(liveGame.state, name);
  const voted = await liveGame.submit((state, at) => {
    let result: Result<engine.Change, engine.GameError> = ok({ state, events: [] });
    const events: engine.GameEvent[] = [];
    const living = state.players.filter((p) => p.alive);
    for (const p of [...living.filter((p) => p.id !== doomed.id), doomed]) {
      if (!result.ok || result.value.state.phase !== 'vote') break;
      const target = p.id === doomed.id ? living.find((o) => o.id !== doomed.id)!.id : doomed.id;
      result = engine.vote(result.value.state, { voterId: p.id, targetId: target, at });
      if (result.ok) events.push(...result.value.events);
    }
    return result.ok ? ok({ state: result.value.state, events }) : result;
  });
  expect(voted.ok && liveGame.state.lynchedToday).toBe(doomed.id);
  await settle(w, liveGame);
}

describe('what players read', () => {
  it('GIVEN the Mafia chat by DM because the thread was refused WHEN each night falls, also after a restart, THEN its announcement says so, never that they meet in a thread', async () => {
    const said = botSaysFromNow();
    afterTest(w, w.sim.fail({ method: 'POST', route: '/channels/:channelId/threads', status: 403, code: MISSING_PERMISSIONS }));
    const gameId = (await start()).state.id;
    let restarted = false;
    // The phases pass at their deadlines (the AI seats play; the people need not) until the second night at least.
    for (let i = 0; i < 20; i++) {
      const liveGame = liveGameOf(w, gameId);
      if (!liveGame || liveGame.state.phase === 'ended' || liveGame.state.day >= 3) break;
      if (liveGame.state.phase === 'day' && !restarted) {
        // A deploy between the nights: the bot finds no Mafia thread, so the Mafia still chat by DM.
        await w.restart();
        restarted = true;
        await w.sim.until(() => liveGameOf(w, gameId)?.driver != null, PATIENT);
        await settle(w, liveGameOf(w, gameId)!);
        continue;
      }
      await nextPhase(liveGame);
    }
    expect(restarted).toBe(true);

    const nights = said()
      .flatMap((t) => t.match(/\*\*Night \d\*\*[^\n]*/g) ?? [])
      .map((line) => line.replace(/<t:\d+:R>/, '<t>'));
    expect(nights.length).toBeGreaterThanOrEqual(2);
    nights.forEach((line, i) =>
      expect(line).toBe(`**Night ${i + 1}** falls (until <t>). Check your DMs if you have a night action; the Mafia chat there too.`),
    );
  });

  it('GIVEN the Mafia have their thread WHEN night falls THEN the announcement sends them there', async () => {
    const said = botSaysFromNow();
    await start();
    expect(said().filter((t) => t.includes('**Night'))).toEqual([expect.stringContaining('the Mafia meet in their thread.')]);
  });

  it('GIVEN bob lynched on day 1 WHEN the vote closes and his last words run out THEN the result is said once (the closed vote message, no tally line) and when his last words end once', async () => {
    const said = botSaysFromNow();
    const liveGame = await start();
    await lynch(liveGame, 'bob');
    expect(liveGame.state.phase).toBe('last_words');
    // Time passes as it would: past the moment a reminder could come (15 s before the end), then to the end.
    w.timers.advanceTo(liveGame.state.deadline! - 10_000);
    await settle(w, liveGame);
    await nextPhase(liveGame);
    expect(liveGame.state.phase).toBe('night');

    expect(said().filter((t) => t.includes('Tally'))).toEqual([]);
    expect(said().filter((t) => /\bbob is lynched\b/.test(t))).toEqual([expect.stringContaining('Day 1: the vote (closed)')]);
    const lastWords = said()
      .flatMap((t) => t.split('\n'))
      .filter((line) => /last words/i.test(line));
    expect(lastWords).toEqual([expect.stringMatching(/^🕯️ \*\*Last words\*\* for bob \(until <t:\d+:R>\)\.$/)]);
  });

  it('GIVEN one Mafia, an AI seat, whose proposal completes night 1 WHEN the night resolves on it THEN its words reach the Mafia thread before the channel tells of the death', async () => {
    seed = ONE_AI_MAFIA_SEED;
    const inGame = fromNow(() => w.sim.messagesIn('game'));
    const liveGame = await start({ ...ONE_AI_MAFIA, 'night-one-kill': true });
    await w.sim.until(() => liveGame.state.phase !== 'night' && liveGame.mafiaThreadId !== null, {
      ...PATIENT,
      description: 'night 1 resolved',
    });
    await settle(w, liveGame);

    const mafia = liveGame.state.players.find((p) => engine.isMafia(p.role))!;
    const proposal = w.sim.messagesIn(liveGame.mafiaThreadId!).find((m) => m.displayName === mafia.name);
    const death = inGame().find((m) => m.authorId === w.sim.botUserId && messageText(m).includes('was killed by the Mafia'));
    expect(proposal && death).toBeTruthy();
    // Snowflakes grow with each message made: the proposal's is the smaller.
    expect(BigInt(proposal!.id) < BigInt(death!.id)).toBe(true);
  });

  it("GIVEN dawn 1 announced, with day 1 starting after it WHEN bob answers it at once and the game is ended later THEN the director's cut lists his words under Day 1", async () => {
    const liveGame = await start();
    const gameId = liveGame.state.id;
    while (liveGame.state.phase !== 'dawn') await nextPhase(liveGame);
    const bob = seated(liveGame.state, 'bob').id;
    w.sim.user('bob').say('game', 'Good morning, everyone.');
    await w.sim.until(() => liveGame.state.log.some((e) => e.type === 'speech' && e.payload.playerId === bob), {
      ...PATIENT,
      description: "bob's words taken",
    });
    await nextPhase(liveGame);
    await w.sim.user('alice').slash('game', 'mafia', { subcommand: 'end' }).reply(PATIENT);
    const cut = await w.sim.until(
      () =>
        w.sim
          .messagesIn('game')
          .flatMap((m) => m.attachments)
          .find((a) => a.filename === `directors-cut-${gameId}.md`),
      { ...PATIENT, description: "the director's cut" },
    );

    const record = cut.data.toString('utf8').split('\n');
    const said = record.indexOf('- bob: Good morning, everyone.');
    expect(said).toBeGreaterThan(0);
    const headings = record.slice(0, said).filter((line) => line.startsWith('- — '));
    expect(headings.at(-1)).toBe('- — Day 1 —');
  });

  it('GIVEN the vote WHEN bob double-clicks carol THEN one vote is stored, he reads "Your vote: carol." both times, and the tally counts him once', async () => {
    const liveGame = await start();
    while (liveGame.state.phase !== 'vote') await nextPhase(liveGame);
    const gameId = liveGame.state.id;
    const voteMessage = () => voteMessageOf(w, liveGame);
    const carol = seated(liveGame.state, 'carol').id;
    const clicks = [0, 1].map(() => w.sim.user('bob').select(voteMessage(), `vote:${gameId}`, [carol]).ephemeral(PATIENT));
    const answers = await Promise.all(clicks);
    await settle(w, liveGame);

    expect(answers.map(messageText)).toEqual(['Your vote: carol.', 'Your vote: carol.']);
    const bob = seated(liveGame.state, 'bob').id;
    const stored = await w.games.loadEvents(gameId);
    expect(stored.filter((e) => e.type === 'vote_cast' && (e.payload as { voterId?: string }).voterId === bob)).toHaveLength(1);
    // The vote message is edited at most every 2 s: past that, it shows the vote.
    w.timers.advanceTo(w.timers.now() + 2_000);
    const carolsLine = await w.sim.until(() => JSON.stringify(voteMessage().embeds).match(/\*\*carol\*\* — (\d+): ([^\\]*)/), {
      ...PATIENT,
      description: "bob's vote in the vote message",
    });
    const voters = carolsLine[2]!.split(', ');
    expect(voters.filter((v) => v === 'bob')).toHaveLength(1);
    expect(Number(carolsLine[1])).toBe(voters.length);
  });
});
