import { InteractionResponseType } from 'discord.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GameStore } from '../../../src/db/game-store.ts';
import type { LiveGame } from '../../../src/discord/live-game.ts';
import { NO_LYNCH_VALUE } from '../../../src/discord/presenters/vote.ts';
import { messageText } from '../../../scripts/fakes/discord/index.ts';
import { startWorld, type World } from './harness.ts';
import { options, seated, liveGameOf, voteMessageOf, gameAtTheVote } from './playing.ts';
import { afterTest, appended, tidy } from './shared-world.ts';

/** The game store with the loading of a stored game's Discord refs (the last read before it is live) held while `held`. */
class LoadValve {
  held = false;
  private waiting: (() => void)[] = [];

  wrap(store: GameStore): GameStore {
    return {
      ...store,
      loadDiscordRefs: async (gameId) => {
        if (this.held) await new Promise<void>((resolve) => this.waiting.push(resolve));
        return store.loadDiscordRefs(gameId);
      },
    };
  }

  get waitingLoads(): number {
    return this.waiting.length;
  }

  release(): void {
    this.held = false;
    for (const go of this.waiting.splice(0)) go();
  }
}

/** A bound on waiting for an answer, not a timing: Discord's 3 s for the acknowledgement are the simulator's to enforce. */
const WAIT = { timeoutMs: 30_000 };

const valve = new LoadValve();
let w: World;
beforeAll(async () => {
  w = await startWorld({ games: (store) => valve.wrap(store) });
});
afterEach(async () => {
  valve.release();
  await tidy(w);
});
afterAll(() => w.close());

/** Bob's vote for the first other player the menu offers, and what he is told once it counts. */
function bobsVote(liveGame: LiveGame): { choice: string; answer: string } {
  const bob = seated(liveGame.state, 'bob');
  const choice = options(voteMessageOf(w, liveGame), `vote:${liveGame.state.id}`).find((v) => v !== bob.id && v !== NO_LYNCH_VALUE)!;
  return { choice, answer: `Your vote: ${liveGame.state.players.find((p) => p.id === choice)!.name}.` };
}

describe('the first moments of a bot that starts again', () => {
  it('GIVEN a game in its vote WHEN the bot starts again, Discord is slow to answer its command registration, and as READY goes out bob votes, alice and carol ask /mafia status and bob asks /mafia rules THEN every one of them is answered', async () => {
    const failed = appended(() => w.sim.failedRequests());
    const errors = appended(() => w.log.errors);
    const liveGame = await gameAtTheVote(w);
    const gameId = liveGame.state.id;
    const message = voteMessageOf(w, liveGame);
    const { choice, answer } = bobsVote(liveGame);

    const registration = w.sim.hold({ method: 'GET', route: '/applications/:appId/commands' });
    afterTest(w, () => registration.release());
    const starting = w.restart();
    // The new bot is logged in (READY went out) and asks Discord for its commands, which does not answer yet.
    await w.sim.until(() => registration.waiting > 0, WAIT);
    const vote = w.sim.user('bob').select(message, `vote:${gameId}`, [choice]);
    const statuses = ['alice', 'carol'].map((name) => w.sim.user(name).slash('game', 'mafia', { subcommand: 'status' }));
    const rules = w.sim.user('bob').slash('game', 'mafia', { subcommand: 'rules' });

    expect(messageText(await vote.ephemeral(WAIT))).toBe(answer);
    for (const status of statuses) expect(messageText(await status.ephemeral(WAIT))).toContain('Mafia: Vote 1');
    expect(messageText(await rules.ephemeral(WAIT))).toContain('Rules of this game');
    // All of it while the registration still waits.
    expect(registration.waiting).toBe(1);
    registration.release();
    await starting;
    expect(liveGameOf(w, gameId)!.state.votes[seated(liveGameOf(w, gameId)!.state, 'bob').id]).toBe(choice);
    expect(failed()).toEqual([]);
    expect(errors()).toEqual([]);
  });

  it('GIVEN a game in its vote WHEN the bot starts again and loading the stored game is slow THEN a vote and a /mafia status sent meanwhile are acknowledged at once, and answered once the game is back', async () => {
    const failed = appended(() => w.sim.failedRequests());
    const errors = appended(() => w.log.errors);
    const liveGame = await gameAtTheVote(w);
    const gameId = liveGame.state.id;
    const message = voteMessageOf(w, liveGame);
    const { choice, answer } = bobsVote(liveGame);

    valve.held = true;
    const starting = w.restart();
    await w.sim.until(() => valve.waitingLoads > 0, WAIT);
    const vote = w.sim.user('bob').select(message, `vote:${gameId}`, [choice]);
    const status = w.sim.user('alice').slash('game', 'mafia', { subcommand: 'status' });

    // Within Discord's 3 s, while the game is still loading: a private "thinking…" each.
    expect((await vote.ack(WAIT)).type).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
    expect((await status.ack(WAIT)).type).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
    expect(valve.waitingLoads).toBeGreaterThan(0);
    valve.release();
    await starting;

    expect(messageText(await vote.ephemeral(WAIT))).toBe(answer);
    expect(messageText(await status.ephemeral(WAIT))).toContain('Mafia: Vote 1');
    expect(liveGameOf(w, gameId)!.state.votes[seated(liveGameOf(w, gameId)!.state, 'bob').id]).toBe(choice);
    expect(failed()).toEqual([]);
    expect(errors()).toEqual([]);
  });
});
