/** What players read in the channel: each thing said once, and true. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LiveGame } from '../../../src/discord/live-games.ts';
import * as engine from '../../../src/game/index.ts';
import { ok, type Result } from '../../../src/result.ts';
import { messageText } from '../../../scripts/fakes/discord/index.ts';
import { startWorld, type World } from './harness.ts';
import { AI, humansAct, seated, seedWhere, settle, tableOf, toNextPhase } from './playing.ts';
import { afterTest, fromNow, tidy } from './shared-world.ts';

const MISSING_PERMISSIONS = 50013;
/** bob is a Townsperson: lynched on day 1, the game goes on. */
const SEED = seedWhere((roles) => roles.bob === 'townsperson' && roles.alice !== 'mafia' && roles.carol !== 'mafia');

let w: World;
beforeAll(async () => {
  w = await startWorld({ seed: SEED });
});
afterEach(() => tidy(w));
afterAll(() => w.close());

/** alice hosts, bob and carol join, the AI take seats, alice starts (nobody dies on night 1); nothing waits for a Mafia thread. */
async function start(): Promise<LiveGame> {
  const lobby = await w.sim
    .user('alice')
    .slash('game', 'mafia', { subcommand: 'create', options: { 'night-one-kill': false } })
    .public();
  const table = w.bot.liveGames.live[0]!;
  for (const name of ['bob', 'carol']) await w.sim.user(name).click(lobby, `lobby:join:${table.state.id}`).updated();
  for (const persona of AI) await w.sim.user('alice').slash('game', 'mafia', { subcommand: 'add-ai', options: { persona } }).ephemeral();
  await w.sim.user('alice').click(lobby, `lobby:start:${table.state.id}`).updated();
  await w.sim.until(() => table.driver !== null);
  await settle(w, table);
  return table;
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
async function lynch(table: LiveGame, name: string): Promise<void> {
  while (table.state.phase !== 'vote') await toNextPhase(w, table);
  const doomed = seated(table.state, name);
  const voted = await table.submit((state, at) => {
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
  expect(voted.ok && table.state.lynchedToday).toBe(doomed.id);
  await settle(w, table);
}

describe('what players read', () => {
  it('GIVEN the Mafia chat by DM because the thread was refused WHEN each night falls, also after a restart, THEN its announcement says so, never that they meet in a thread', async () => {
    const said = botSaysFromNow();
    afterTest(w, w.sim.fail({ method: 'POST', route: '/channels/:channelId/threads', status: 403, code: MISSING_PERMISSIONS }));
    const gameId = (await start()).state.id;
    const used = new Set<string>();
    let restarted = false;
    // The people act as they would (a night may resolve as soon as everyone has chosen) until the second night at least.
    for (let i = 0; i < 20; i++) {
      const table = tableOf(w, gameId);
      if (!table || table.state.phase === 'ended' || table.state.day >= 3) break;
      if (table.state.phase === 'day' && !restarted) {
        // A deploy between the nights: the bot finds no Mafia thread, so the Mafia still chat by DM.
        await w.restart();
        restarted = true;
        // The game is back when its AI seats play again (what people say before that is another matter).
        await w.sim.until(() => tableOf(w, gameId)?.driver != null, { timeoutMs: 15_000 });
        await settle(w, tableOf(w, gameId)!);
        continue;
      }
      await humansAct(w, gameId, used);
      await toNextPhase(w, tableOf(w, gameId)!);
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
    const table = await start();
    await lynch(table, 'bob');
    expect(table.state.phase).toBe('last_words');
    // Time passes as it would: past the moment a reminder could come (15 s before the end), then to the end.
    w.timers.advanceTo(table.state.deadline! - 10_000);
    await settle(w, table);
    await toNextPhase(w, table);
    expect(table.state.phase).toBe('night');

    expect(said().filter((t) => t.includes('Tally'))).toEqual([]);
    expect(said().filter((t) => /\bbob is lynched\b/.test(t))).toEqual([expect.stringContaining('Day 1: the vote (closed)')]);
    const lastWords = said()
      .flatMap((t) => t.split('\n'))
      .filter((line) => /last words/i.test(line));
    expect(lastWords).toEqual([expect.stringMatching(/^🕯️ \*\*Last words\*\* for bob \(until <t:\d+:R>\)\.$/)]);
  });
});
