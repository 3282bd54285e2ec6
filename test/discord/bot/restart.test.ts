import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveGame } from '../../../src/discord/live-game.ts';
import { getRole, type GameState } from '../../../src/game/index.ts';
import { messageText } from '../../../scripts/fakes/discord/index.ts';
import { humansAct, openGame, outcome, seated, seedWhere, settle, liveGameOf, toNextPhase, HUMANS } from './playing.ts';
import { startWorld, type World } from './harness.ts';

// Two people act at night, so the night is still open after the first of them acted (and the kill comes then).
const SEED = seedWhere((roles) => Object.values(roles).filter((r) => getRole(r).nightAction !== null).length >= 2, 20261122);

/** One world for the file: starting one costs more than a game, and games in it never share a channel at once. */
let w: World;
beforeAll(async () => {
  w = await startWorld({ seed: SEED });
});
afterAll(() => w.close());

/** Set when the process is killed during a vote: that vote's message, and how many REST calls came before the kill. */
let killedDuringVote: { messageId: string; callsBefore: number } | null = null;

type Refs = Pick<LiveGame, 'lobbyMessageId' | 'voteMessageId' | 'mafiaThreadId'>;
const refsOf = (t: LiveGame): Refs => ({
  lobbyMessageId: t.lobbyMessageId,
  voteMessageId: t.voteMessageId,
  mafiaThreadId: t.mafiaThreadId,
});

/**
 * Plays a started game to its end with the same human inputs every time. In each phase named in
 * `killAt` (`night:2` is the second night) the process is killed right after the first person acted
 * there (so the phase is still open), then started again; `check` sees the state before and after.
 */
async function playOut(
  gameId: string,
  killAt: readonly string[],
  check: (before: GameState, after: GameState) => void,
): Promise<GameState> {
  const used = new Set<string>();
  const killed = new Set<string>();
  let last = liveGameOf(w, gameId)!;
  for (let step = 0; step < 60 && last.state.phase !== 'ended'; step++) {
    const at = `${last.state.phase}:${last.state.day}`;
    await humansAct(w, gameId, used, async () => {
      if (!killAt.includes(at) || killed.has(at)) return;
      killed.add(at);
      // The AI seats finish what the person's move set off, so both runs see the same moves.
      await settle(w, liveGameOf(w, gameId)!);
      const before = liveGameOf(w, gameId)!;
      if (before.state.phase === 'vote') killedDuringVote = { messageId: before.voteMessageId!, callsBefore: w.sim.requests().length };
      await w.restart();
      const liveGame = liveGameOf(w, gameId)!;
      await settle(w, liveGame);
      // The messages and thread it used are known again, not guessed or posted anew.
      expect(refsOf(liveGame)).toEqual(refsOf(before));
      check(before.state, liveGame.state);
    });
    last = liveGameOf(w, gameId) ?? last;
    await toNextPhase(w, last);
  }
  expect(killed).toEqual(new Set(killAt));
  return last.state;
}

describe('killed and restarted mid-game', () => {
  it('GIVEN the same seed and the same human inputs WHEN one game runs through and another is killed mid-night, mid-day and mid-vote THEN both end with the same winner and the same deaths, and nothing done before a kill is lost', async () => {
    const first = await openGame(w);
    const through = await playOut(first.state.id, [], () => undefined);
    expect(through.phase).toBe('ended');

    const second = await openGame(w);
    expect(second.state.seed).toBe(SEED);
    const restarted = await playOut(second.state.id, ['night:1', 'day:1', 'vote:1'], (before, after) => {
      // The resumed game is the stored one, to the event: nothing lost, nothing done twice.
      expect(after.log).toEqual(before.log);
      if (before.phase === 'night') {
        const acted = HUMANS.map((n) => seated(before, n)).filter((p) => p.id in before.night.actions || p.id in before.night.proposals);
        expect(acted.length).toBeGreaterThan(0);
        for (const p of acted) {
          expect(after.night.actions[p.id] ?? after.night.proposals[p.id]).toEqual(
            before.night.actions[p.id] ?? before.night.proposals[p.id],
          );
        }
      } else if (before.phase === 'vote') {
        // The vote cast just before the kill still counts, and the same vote message goes on.
        const voted = HUMANS.map((n) => seated(before, n)).filter((p) => p.id in before.votes);
        expect(voted.length).toBeGreaterThan(0);
        for (const p of voted) expect(after.votes[p.id]).toBe(before.votes[p.id]);
      } else {
        // What a person said just before the kill is in the resumed game's transcript.
        const said = before.log.filter((e) => e.type === 'speech' && e.payload.text.endsWith('thinks someone is lying.'));
        expect(said.length).toBeGreaterThan(0);
        expect(after.log).toEqual(expect.arrayContaining(said));
      }
    });

    expect(outcome(restarted)).toEqual(outcome(through));

    // The vote message of before the kill took the later clicks: edited after the restart, never posted anew.
    const { messageId, callsBefore } = killedDuringVote!;
    const after = w.sim.requests().slice(callsBefore);
    expect(after.filter((r) => r.method === 'PATCH' && r.path.endsWith(`/messages/${messageId}`)).length).toBeGreaterThan(0);
    const posted = after.filter((r) => r.method === 'POST' && JSON.stringify(r.body ?? null).includes(`vote:${second.state.id}`));
    expect(posted).toHaveLength(
      restarted.log.filter((e) => e.type === 'phase_started' && e.payload.phase === 'vote' && e.payload.day > 1).length,
    );
    const tally = JSON.stringify(w.sim.messagesIn('game').find((m) => m.id === messageId)!.embeds);
    const voters = restarted.log.flatMap((e) =>
      e.type === 'vote_resolved' && e.payload.day === 1 ? e.payload.tally.flatMap((t) => t.voters) : [],
    );
    for (const id of voters) expect(tally).toContain(restarted.players.find((p) => p.id === id)!.name);
    expect(w.sim.failedRequests()).toEqual([]);
  });

  it('GIVEN a lobby WHEN the process restarts THEN the same lobby embed keeps being updated, by commands as by its buttons', async () => {
    const lobby = await w.sim.user('alice').slash('game', 'mafia', { subcommand: 'create' }).public();
    const id = w.bot.liveGames.live.find((t) => t.channelId === w.sim.channel('game').id)!.state.id;
    const messagesBefore = w.sim.messagesIn('game').length;

    await w.restart();

    // A command, not a click on the lobby: only the stored id tells the bot which message to edit.
    await w.sim
      .user('alice')
      .slash('game', 'mafia', { subcommand: 'add-ai', options: { persona: 'Miss Marple' } })
      .ephemeral();
    await w.bot.idle();
    expect(JSON.stringify(w.sim.messagesIn('game').find((m) => m.id === lobby.id)!.embeds)).toContain('Miss Marple');
    await w.sim.user('bob').click(lobby, `lobby:join:${id}`).updated();
    expect(JSON.stringify(w.sim.messagesIn('game').find((m) => m.id === lobby.id)!.embeds)).toContain('bob');
    expect(w.sim.messagesIn('game')).toHaveLength(messagesBefore);
    expect(w.sim.failedRequests()).toEqual([]);
  });

  it('GIVEN an open lobby WHEN the process restarts and the first thing anyone asks there is /mafia status THEN they see the lobby, not an apology', async () => {
    await w.sim.user('alice').slash('other', 'mafia', { subcommand: 'create' }).public();
    const errorsBefore = w.log.errors.length;

    await w.restart();

    // The lobby is loaded for it: a bound on the wait, not a timing (the simulator holds the bot to Discord's 3 s for the acknowledgement).
    const status = await w.sim.user('bob').slash('other', 'mafia', { subcommand: 'status' }).ephemeral({ timeoutMs: 30_000 });
    expect(messageText(status)).toContain('Mafia: Lobby');
    expect(messageText(status)).toContain('alice');
    expect(w.log.errors.slice(errorsBefore)).toEqual([]);
    expect(w.sim.failedRequests()).toEqual([]);
  });
});
