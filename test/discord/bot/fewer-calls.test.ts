/** What players see stays the same while the bot makes fewer REST calls: folded edits, merged messages, no needless asking. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getRole, type GameState } from '../../../src/game/index.ts';
import type { LiveGame } from '../../../src/discord/live-game.ts';
import { messageText, type SimMessage } from '../../../scripts/fakes/discord/index.ts';
import { startWorld, type World } from './harness.ts';
import { AI, HUMANS, humansAct, openGame, options, seated, settle, toNextPhase } from './playing.ts';
import { appended, fromNow, tidy } from './shared-world.ts';

/** One world for the file (every game dealt by seed 3): each test's game is ended after it. */
let w: World;
beforeAll(async () => {
  w = await startWorld({ seed: 3 });
});
afterEach(() => tidy(w));
afterAll(() => w.close());

const MESSAGE_EDIT = '/channels/:channelId/messages/:messageId';

function message(id: string | null): SimMessage {
  return w.sim.messagesIn('game').find((m) => m.id === id)!;
}

/** Edits the bot made of one message so far. */
function editsOf(messageId: string): number {
  return w.sim.requests('PATCH', MESSAGE_EDIT).filter((c) => c.path.endsWith(`/${messageId}`)).length;
}

const asked = () => w.sim.requests('GET', '/guilds/:guildId/members/:userId').length;

/** Steps phase by phase until `phase` (or the end of the game). */
async function until(liveGame: LiveGame, phase: GameState['phase']): Promise<void> {
  while (liveGame.state.phase !== phase && liveGame.state.phase !== 'ended') await toNextPhase(w, liveGame);
  await settle(w, liveGame);
}

describe('the vote message', () => {
  it('GIVEN the vote opens WHEN people vote within two seconds of each other THEN the tally is edited once with every vote, the opening line is the message itself, and the closed tally is final', async () => {
    const channel = fromNow(() => w.sim.messagesIn('game'));
    const failed = appended(() => w.sim.failedRequests());
    const liveGame = await openGame(w, { 'night-one-kill': false });
    await until(liveGame, 'vote');
    const gameId = liveGame.state.id;
    const vote = message(liveGame.voteMessageId);
    expect(vote.content).toMatch(/The vote is open/);
    expect(channel().filter((m) => m.content.includes('The vote is open'))).toHaveLength(1);
    const editsBefore = editsOf(vote.id);

    // The AI players have voted; alice and bob vote too, carol not, so the vote stays open.
    for (const name of ['alice', 'bob'] as const) {
      const me = seated(liveGame.state, name);
      const choice = options(vote, `vote:${gameId}`).find((v) => v !== me.id && AI.some((n) => seated(liveGame.state, n).id === v))!;
      expect(messageText(await w.sim.user(name).select(vote, `vote:${gameId}`, [choice]).ephemeral())).toMatch(/^Your vote/);
    }
    await settle(w, liveGame);
    expect(liveGame.state.phase).toBe('vote');
    expect(editsOf(vote.id)).toBe(editsBefore);

    w.timers.advanceTo(w.timers.now() + 2000);
    await settle(w, liveGame);
    expect(editsOf(vote.id)).toBe(editsBefore + 1);
    const tally = messageText(message(vote.id));
    for (const name of ['alice', 'bob']) expect(tally).toContain(name);
    expect(tally).toMatch(/Still to vote: carol/);

    await toNextPhase(w, liveGame);
    const closed = message(vote.id);
    const resolved = liveGame.state.log.findLast((e) => e.type === 'vote_resolved');
    expect(messageText(closed)).toContain('(closed)');
    expect(closed.content).toBe('');
    for (const line of resolved?.type === 'vote_resolved' ? resolved.payload.tally : []) {
      expect(messageText(closed)).toContain(`— ${line.voters.length}:`);
    }
    expect(failed()).toEqual([]);
  });
});

describe('the lobby', () => {
  it('GIVEN a lobby WHEN bob joins, then the host seats four AI players at once THEN bob shows at once, the four in one edit, and the start at once', async () => {
    const lobby = await w.sim.user('alice').slash('game', 'mafia', { subcommand: 'create', options: {} }).public();
    const liveGame = w.bot.liveGames.live[0]!;
    const joined = await w.sim.user('bob').click(lobby, `lobby:join:${liveGame.state.id}`).updated();
    expect(messageText(joined)).toContain('bob');
    const editsBefore = editsOf(lobby.id);

    for (const persona of AI) await w.sim.user('alice').slash('game', 'mafia', { subcommand: 'add-ai', options: { persona } }).ephemeral();
    await w.bot.idle();
    expect(editsOf(lobby.id)).toBe(editsBefore);

    w.timers.advanceTo(w.timers.now() + 2000);
    await w.bot.idle();
    expect(editsOf(lobby.id)).toBe(editsBefore + 1);
    for (const persona of AI) expect(messageText(message(lobby.id))).toContain(persona);

    await w.sim.user('carol').click(lobby, `lobby:join:${liveGame.state.id}`).updated();
    const started = await w.sim.user('alice').click(lobby, `lobby:start:${liveGame.state.id}`).updated();
    expect(messageText(started)).toMatch(/started/i);
  });
});

describe('the start of the game', () => {
  it('GIVEN a game that starts at night WHEN the roles are dealt THEN each person with a night action gets their role card and first night menu in one message', async () => {
    const dmsTo = new Map(HUMANS.map((name) => [name, fromNow(() => w.sim.dmsTo(name))]));
    const liveGame = await openGame(w);
    const night = `night:${liveGame.state.id}`;
    for (const name of HUMANS) {
      const role = getRole(seated(liveGame.state, name).role!);
      const dms = dmsTo.get(name)!();
      expect(dms).toHaveLength(1);
      expect(messageText(dms[0]!)).toContain(`You are the ${role.name}`);
      expect(options(dms[0]!, night).length > 0).toBe(role.nightAction !== null);
    }
  });
});

describe('who is still in the server', () => {
  it('GIVEN people who voted in the channel WHEN night falls THEN Discord is not asked about them; WHEN day breaks after a night of DMs THEN it is, once per living person and the host', async () => {
    const liveGame = await openGame(w, { 'night-one-kill': false });
    await until(liveGame, 'vote');
    await humansAct(w, liveGame.state.id, new Set());
    const before = asked();
    // The AI may finish the night at once (no person here has a night action): it has fallen by dawn too.
    while (!['night', 'dawn', 'ended'].includes(liveGame.state.phase)) await toNextPhase(w, liveGame);
    await settle(w, liveGame);
    expect(['night', 'dawn']).toContain(liveGame.state.phase);
    expect(asked()).toBe(before);

    await until(liveGame, 'day');
    expect(liveGame.state.phase).toBe('day');
    // Each living person, and the host (asked once if both).
    const people = new Set([
      ...HUMANS.filter((name) => seated(liveGame.state, name).alive).map((name) => w.sim.user(name).id),
      liveGame.hostId,
    ]);
    expect(asked()).toBe(before + people.size);
  });
});
