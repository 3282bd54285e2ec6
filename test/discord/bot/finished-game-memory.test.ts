import { ChannelType } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorld, type World } from './harness.ts';
import { humansAct, HUMANS, openGame, toNextPhase } from './playing.ts';

let w: World;
beforeAll(async () => {
  w = await startWorld({ seed: 7 });
});
afterAll(() => w.close());

/** Messages discord.js holds in the DMs of these people. */
function dmMessages(names: readonly string[]): number {
  const ids = new Set(names.map((name) => w.sim.user(name).id));
  let held = 0;
  for (const channel of w.client.channels.cache.values()) {
    if (channel.type === ChannelType.DM && ids.has(channel.recipientId)) held += channel.messages.cache.size;
  }
  return held;
}

describe('what a finished game leaves in memory', () => {
  it("GIVEN a game played to its end on Discord WHEN its director's cut is out THEN discord.js holds neither of its threads nor a message of its channel or of its people's DMs, and the bot's own tables hold nothing of it", async () => {
    const liveGame = await openGame(w);
    const mafiaThreadId = liveGame.mafiaThreadId;
    const used = new Set<string>();
    for (let step = 0; step < 80 && liveGame.state.phase !== 'ended'; step++) {
      await humansAct(w, liveGame.state.id, used);
      await toNextPhase(w, liveGame);
    }
    await w.bot.idle();
    expect(liveGame.state.phase).toBe('ended');
    const cut = w.sim.threadsOf('game').find((t) => t.name?.startsWith("Director's cut"));
    expect(cut).toBeDefined();
    expect(mafiaThreadId).not.toBeNull();

    expect(w.client.channels.cache.has(mafiaThreadId ?? '')).toBe(false);
    expect(w.client.channels.cache.has(cut?.id ?? '')).toBe(false);
    const channel = w.client.channels.cache.get(w.sim.channel('game').id);
    expect(channel?.isTextBased() ? channel.messages.cache.size : -1).toBe(0);
    expect(dmMessages(HUMANS)).toBe(0);
    // Left: the channel's webhook (kept for its next game), who was seen in the server, and the finished threads' ids (all bounded).
    const held = Object.entries(w.bot.liveGames.held()).filter(([, n]) => n > 0);
    expect(held.map(([name]) => name).sort()).toEqual(['finishedThreads', 'seenMembers', 'webhooks']);
  });
});
