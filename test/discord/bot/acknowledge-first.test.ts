import { InteractionResponseType } from 'discord.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GameStore } from '../../../src/db/game-store.ts';
import type { LiveGame } from '../../../src/discord/live-game.ts';
import { NO_LYNCH_VALUE } from '../../../src/discord/presenters/vote.ts';
import { isEphemeral, messageText } from '../../../scripts/fakes/discord/index.ts';
import { startWorld, type World } from './harness.ts';
import { options, seated, settle, voteMessageOf, gameAtTheVote } from './playing.ts';
import { appended, tidy } from './shared-world.ts';

/** The game store with its event-log writes held while `held`, or failing while `failing`. */
class StoreValve {
  held = false;
  failing = false;
  private waiting: (() => void)[] = [];

  wrap(store: GameStore): GameStore {
    return {
      ...store,
      append: async (...args) => {
        if (this.held) await new Promise<void>((resolve) => this.waiting.push(resolve));
        if (this.failing) throw new Error('connection to the database lost');
        return store.append(...args);
      },
    };
  }

  get waitingWrites(): number {
    return this.waiting.length;
  }

  release(): void {
    this.held = false;
    for (const go of this.waiting.splice(0)) go();
  }
}

/** One world for the file, its game store behind one valve: open and working at the start of each test, its game ended after it. */
const valve = new StoreValve();
let w: World;
beforeAll(async () => {
  w = await startWorld({ games: (store) => valve.wrap(store) });
});
afterEach(async () => {
  valve.failing = false;
  valve.release();
  await tidy(w);
});
afterAll(() => w.close());

async function storedVotesOf(liveGame: LiveGame, voterId: string): Promise<number> {
  const events = await w.games.loadEvents(liveGame.state.id);
  return events.filter((e) => e.type === 'vote_cast' && (e.payload as { voterId?: string }).voterId === voterId).length;
}

describe('interactions are acknowledged before their change is stored, and confirmed once it is', () => {
  it('GIVEN a store whose writes are held WHEN bob votes THEN he is acknowledged while the write waits, and his answer follows the stored vote (a crash in between leaves no confirmation of an unstored vote)', async () => {
    const failed = appended(() => w.sim.failedRequests());
    const liveGame = await gameAtTheVote(w);
    const gameId = liveGame.state.id;
    const bob = seated(liveGame.state, 'bob');
    const choice = options(voteMessageOf(w, liveGame), `vote:${gameId}`).find((v) => v !== bob.id && v !== NO_LYNCH_VALUE)!;

    valve.held = true;
    const vote = w.sim.user('bob').select(voteMessageOf(w, liveGame), `vote:${gameId}`, [choice]);
    const ack = await vote.ack();
    expect(ack.type).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
    // Decided in memory at once; nothing stored yet, and bob is told nothing yet.
    expect(liveGame.state.votes[bob.id]).toBe(choice);
    await w.sim.until(() => valve.waitingWrites > 0);
    expect(liveGame.session.storedState.votes[bob.id]).toBeUndefined();
    expect(await storedVotesOf(liveGame, bob.id)).toBe(0);
    expect(vote.messages().map(messageText)).toEqual(['']);

    valve.release();
    expect(messageText(await vote.ephemeral())).toBe(`Your vote: ${liveGame.state.players.find((p) => p.id === choice)!.name}.`);
    expect(await storedVotesOf(liveGame, bob.id)).toBe(1);
    expect(failed()).toEqual([]);
  });

  it('GIVEN a store that answers at once WHEN bob votes THEN the stored confirmation is the answer itself, one call', async () => {
    const liveGame = await gameAtTheVote(w);
    const gameId = liveGame.state.id;
    const bob = seated(liveGame.state, 'bob');
    const choice = options(voteMessageOf(w, liveGame), `vote:${gameId}`).find((v) => v !== bob.id && v !== NO_LYNCH_VALUE)!;
    const vote = w.sim.user('bob').select(voteMessageOf(w, liveGame), `vote:${gameId}`, [choice]);
    const answer = await vote.ack();
    // Under the grace (100 ms) on any machine that is not stalled: the answer carries the confirmation.
    if (answer.type === InteractionResponseType.ChannelMessageWithSource) {
      expect(await storedVotesOf(liveGame, bob.id)).toBe(1);
      expect(vote.interaction.callbacks).toHaveLength(1);
    }
    expect(messageText(await vote.ephemeral())).toMatch(/^Your vote: /);
  });

  it('GIVEN a store that fails every write WHEN bob votes THEN he is told it did not count, never that it did; the vote is undone and missing from the tally, and counts once the store works again', async () => {
    const liveGame = await gameAtTheVote(w);
    const gameId = liveGame.state.id;
    const bob = seated(liveGame.state, 'bob');
    const choice = options(voteMessageOf(w, liveGame), `vote:${gameId}`).find((v) => v !== bob.id && v !== NO_LYNCH_VALUE)!;

    valve.failing = true;
    const lost = w.sim.user('bob').select(voteMessageOf(w, liveGame), `vote:${gameId}`, [choice]);
    const told = await w.sim.until(() => lost.messages().find((m) => /could not store that, so it did not count/.test(messageText(m))), {
      description: 'bob told his vote did not count',
    });
    expect(isEphemeral(told)).toBe(true);
    // Never told it counted.
    expect(lost.messages().some((m) => /^Your vote: /.test(messageText(m)))).toBe(false);
    expect(liveGame.state.votes[bob.id]).toBeUndefined();
    expect(liveGame.session.storedState).toBe(liveGame.state);
    expect(await storedVotesOf(liveGame, bob.id)).toBe(0);
    await settle(w, liveGame);
    expect(JSON.stringify(voteMessageOf(w, liveGame).embeds)).toMatch(/Still to vote:[^"]*bob/);

    valve.failing = false;
    const counted = await w.sim.user('bob').select(voteMessageOf(w, liveGame), `vote:${gameId}`, [choice]).ephemeral();
    expect(messageText(counted)).toBe(`Your vote: ${liveGame.state.players.find((p) => p.id === choice)!.name}.`);
    expect(await storedVotesOf(liveGame, bob.id)).toBe(1);
  });
});
