/**
 * Issue 29: Discord sends every DM to shard 0. A night pick there whose game is another shard's is
 * acknowledged by shard 0 at once, then handed over; the game's shard finishes the answer through the
 * interaction's webhook however long the hand-over took, within the token's 15 minutes. Both shards
 * run in this process on one database (the harness's `sharded` world); the inbox between them is the
 * test's own, so a slow inbox is held and aged, never waited for.
 */
import { InteractionResponseType, MessageFlags } from 'discord.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ShardDelivery, ShardInboxItem, ShardOutbox } from '../../../src/db/shard-inbox.ts';
import type { LiveGame } from '../../../src/discord/live-game.ts';
import { SKIP_VALUE } from '../../../src/discord/presenters/night-action.ts';
import type { ShardRelay } from '../../../src/discord/shard-relay.ts';
import { isEphemeral, messageText, type InteractionHandle } from '../../../scripts/fakes/discord/index.ts';
import { startWorld, type World } from './harness.ts';
import { nightMenu, openGame, options, seated, seedWhere, toNextPhase } from './playing.ts';
import { appended, tidy } from './shared-world.ts';

interface Waiting {
  readonly item: Omit<ShardInboxItem, 'waitedMs'>;
  readonly sentAt: number;
  agedMs: number;
}

/**
 * Shard 0's inbox to shard 1, in this process: an item goes to shard 1's relay as soon as it is sent,
 * or, while `held`, waits until `release` (a slow inbox, or shard 1 down); `age` makes the waiting
 * ones older instead of waiting. What it was sent and what shard 1 threw back are kept.
 */
class TestInbox implements ShardOutbox {
  held = false;
  readonly sent: ShardDelivery[] = [];
  readonly failures: unknown[] = [];
  private readonly waiting: Waiting[] = [];
  private nextId = 1;

  constructor(private readonly to: () => ShardRelay | null) {}

  send(shard: number, delivery: ShardDelivery): Promise<void> {
    this.sent.push(delivery);
    const acknowledged = delivery.kind === 'interaction' ? delivery.acknowledged : null;
    const item = { id: String(this.nextId++), shard, kind: delivery.kind, payload: delivery.payload, acknowledged };
    const waiting = { item, sentAt: Date.now(), agedMs: 0 };
    if (this.held) this.waiting.push(waiting);
    // Delivered after the send returns, as the real inbox's notification comes after the commit.
    else setImmediate(() => this.deliver(waiting));
    return Promise.resolve();
  }

  get waitingItems(): number {
    return this.waiting.length;
  }

  age(ms: number): void {
    for (const w of this.waiting) w.agedMs += ms;
  }

  release(): void {
    this.held = false;
    for (const w of this.waiting.splice(0)) this.deliver(w);
  }

  private deliver({ item, sentAt, agedMs }: Waiting): void {
    const relay = this.to();
    if (!relay) throw new Error('shard 1 has no relay');
    relay.receive({ ...item, waitedMs: Date.now() - sentAt + agedMs }).catch((error: unknown) => this.failures.push(error));
  }
}

/** alice is Mafia: she has a night menu, and no night kills her (so she is alive the day after). */
const SEED = seedWhere((roles) => roles.alice === 'mafia');

let w: World;
let inbox: TestInbox;
beforeAll(async () => {
  inbox = new TestInbox(() => w.bot.relay);
  w = await startWorld({ seed: SEED, sharded: { outbox: inbox } });
});
afterEach(async () => {
  inbox.release();
  expect(inbox.failures).toEqual([]);
  await tidy(w);
});
afterAll(() => w.close());

const DEFERRED = InteractionResponseType.DeferredChannelMessageWithSource;

/** alice's newest night menu of this game: the message, its select's custom id (`night:<game>:<day>`) and a target on it. */
function alicesMenu(liveGame: LiveGame) {
  const gameId = liveGame.state.id;
  const message = nightMenu(w, 'alice', gameId);
  if (!message) throw new Error('alice has no night menu');
  const rows = message.components as { components: { custom_id?: string }[] }[];
  const customId = rows.flatMap((row) => row.components).find((c) => c.custom_id?.startsWith(`night:${gameId}:`))!.custom_id!;
  const target = options(message, `night:${gameId}`).find((v) => v !== SKIP_VALUE)!;
  return { message, customId, target };
}

/** alice's night actions in the game as shard 1 holds it and as stored. */
async function alicesActions(liveGame: LiveGame): Promise<{ live: number; stored: number }> {
  const alice = seated(liveGame.state, 'alice').id;
  const hers = (e: { type: string; payload: unknown }) =>
    (e.type === 'night_action' || e.type === 'mafia_proposal') && (e.payload as { actorId?: string }).actorId === alice;
  return {
    live: liveGame.state.log.filter(hers).length,
    stored: (await w.games.loadEvents(liveGame.state.id)).filter(hers).length,
  };
}

function callbackTypes(pick: InteractionHandle): number[] {
  return pick.interaction.callbacks.map((c) => c.type);
}

describe('a night pick by DM of a game on another shard', () => {
  it('GIVEN a game on shard 1 and an inbox that holds the hand-over past Discord\'s 3 s WHEN alice picks from her night menu (which reaches shard 0) THEN shard 0 acknowledged it with a private "thinking…", and once shard 1 gets it her pick counts and the "thinking…" becomes "Noted: …"', async () => {
    const failed = appended(() => w.sim.failedRequests());
    const handed = appended(() => inbox.sent);
    const liveGame = await openGame(w);
    const menu = alicesMenu(liveGame);
    inbox.held = true;

    const pick = w.sim.user('alice').select(menu.message, menu.customId, [menu.target]);
    const ack = await pick.ack();
    expect(ack.type).toBe(DEFERRED);
    expect(ack.data).toEqual(expect.objectContaining({ flags: MessageFlags.Ephemeral }));
    await w.sim.until(() => inbox.waitingItems === 1, { description: 'the pick waits in the inbox' });
    expect(handed()).toEqual([expect.objectContaining({ kind: 'interaction', acknowledged: 'deferred' })]);
    expect(await alicesActions(liveGame)).toEqual({ live: 0, stored: 0 });
    // Discord's 3 s pass while it waits.
    w.sim.interactions.age(pick.id, 3_500);
    inbox.age(3_500);
    inbox.release();

    const answer = await pick.ephemeral();
    expect(messageText(answer)).toMatch(/^Noted: .+\. You can change your mind until dawn\.$/);
    expect(callbackTypes(pick)).toEqual([DEFERRED]);
    expect(pick.interaction.rejected).toEqual([]);
    expect(await alicesActions(liveGame)).toEqual({ live: 1, stored: 1 });
    expect(failed()).toEqual([]);
  });

  it('GIVEN alice\'s night menu of night 1, used on day 1 WHEN shard 0 hands the pick to shard 1 THEN the refusal fills the private "thinking…" and nothing changes', async () => {
    const liveGame = await openGame(w);
    const menu = alicesMenu(liveGame);
    while (liveGame.state.phase !== 'day') await toNextPhase(w, liveGame);
    expect(seated(liveGame.state, 'alice').alive).toBe(true);
    const before = await alicesActions(liveGame);
    const handed = appended(() => inbox.sent);

    const pick = w.sim.user('alice').select(menu.message, menu.customId, [menu.target]);
    const answer = await pick.ephemeral();

    expect(messageText(answer)).toBe('Night actions can only be taken at night.');
    expect(isEphemeral(answer)).toBe(true);
    expect(callbackTypes(pick)).toEqual([DEFERRED]);
    expect(handed()).toEqual([expect.objectContaining({ kind: 'interaction', acknowledged: 'deferred' })]);
    expect(await alicesActions(liveGame)).toEqual(before);
  });

  it("GIVEN a hand-over held until the interaction's token is nearly 15 minutes old WHEN shard 1 gets it THEN it is dropped and logged, and the pick does not count", async () => {
    const warnings = appended(() => w.log.warnings);
    const liveGame = await openGame(w);
    const menu = alicesMenu(liveGame);
    inbox.held = true;

    const pick = w.sim.user('alice').select(menu.message, menu.customId, [menu.target]);
    expect((await pick.ack()).type).toBe(DEFERRED);
    await w.sim.until(() => inbox.waitingItems === 1, { description: 'the pick waits in the inbox' });
    w.sim.interactions.age(pick.id, 14.5 * 60_000);
    inbox.age(14.5 * 60_000);
    inbox.release();

    await w.sim.until(() => warnings().some((line) => line.includes("too near its token's 15 minutes")), {
      description: 'shard 1 logs the pick as too late',
    });
    await w.bot.idle();
    expect(await alicesActions(liveGame)).toEqual({ live: 0, stored: 0 });
  });

  it("GIVEN a Discord that answers shard 0's acknowledgement only after the 3 s WHEN alice picks THEN the pick is not handed over and does not count (nothing behind her back), and shard 0 logs it", async () => {
    const warnings = appended(() => w.log.warnings);
    const liveGame = await openGame(w);
    const menu = alicesMenu(liveGame);
    const handed = appended(() => inbox.sent);
    const held = w.sim.hold({ method: 'POST', route: '/interactions/:interactionId/:token/callback' });

    const pick = w.sim.user('alice').select(menu.message, menu.customId, [menu.target]);
    await w.sim.until(() => held.waiting === 1, { description: "shard 0's acknowledgement reaches Discord" });
    w.sim.interactions.age(pick.id, 3_500);
    held.release();

    await w.sim.until(() => warnings().some((line) => line.includes('could not be acknowledged')), {
      description: 'shard 0 logs the pick as unacknowledged',
    });
    await w.dmShard!.bot.idle();
    expect(handed()).toEqual([]);
    expect(pick.interaction.callbacks).toEqual([]);
    expect(await alicesActions(liveGame)).toEqual({ live: 0, stored: 0 });
  });
});

describe('a night pick by DM of a game on shard 0 itself', () => {
  it('GIVEN a game in a server on shard 0, held by shard 0 WHEN alice picks from her night menu THEN shard 0 answers it as before: "Noted: …", in one call when the store is quick, nothing handed over', async () => {
    const dmShard = w.dmShard!;
    const home: World = { ...w, bot: dmShard.bot, client: dmShard.client };
    const handed = appended(() => inbox.sent);
    const liveGame = await openGame(home, {}, 'home');
    const menu = alicesMenu(liveGame);

    const pick = w.sim.user('alice').select(menu.message, menu.customId, [menu.target]);
    const ack = await pick.ack();
    // Under the store's grace (100 ms) on any machine that is not stalled: the answer is the confirmation itself.
    if (ack.type === InteractionResponseType.ChannelMessageWithSource) expect(callbackTypes(pick)).toHaveLength(1);

    expect(messageText(await pick.ephemeral())).toMatch(/^Noted: /);
    expect(handed()).toEqual([]);
    expect(await alicesActions(liveGame)).toEqual({ live: 1, stored: 1 });
  });
});
