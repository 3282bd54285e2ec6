/**
 * Issue 14 §3–4: the bot as several shard processes on one PostgreSQL server. A game belongs to its
 * guild's shard; DMs reach only shard 0, which hands the ones of other shards' games over through
 * the database; a shard killed mid-night comes back with every submitted night action, once.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { messageText, startDiscordSim, type DiscordSim, type SimMessage } from '../../scripts/fakes/discord/index.ts';
import { BOT_DEFAULT, EVERYONE_DEFAULT, P } from '../../scripts/fakes/discord/permissions.ts';
import type { Database } from '../../src/db/open-database.ts';
import { SKIP_VALUE } from '../../src/discord/presenters/night-action.ts';
import { startFakeAnthropic } from '../../scripts/fakes/llm/fake-anthropic.ts';
import { reply, type FakeLlmServer } from '../../scripts/fakes/llm/fake-llm-server.ts';
import { describeSharded, kill, sharedDatabase, startBot, until, type BotProcess } from './shard-processes.ts';

const HUMANS = ['alice', 'bob', 'carol', 'dave'] as const;
type Human = (typeof HUMANS)[number];

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * The world of the sharded tests, started once (a bot process takes seconds to start): a guild
 * Discord routes to shard 1 of 2, where the bot may not create private threads (so the Mafia chat
 * by DM), a channel for each game test, one database, the persona editor's model fake, and the two
 * shard processes, which the restart test replaces with new ones. Each test reads only what was
 * added since it began: DMs, the processes' output, failed requests.
 */
interface ShardedWorld {
  readonly sim: DiscordSim;
  readonly url: string;
  readonly db: Database;
  readonly model: FakeLlmServer;
  shard0: BotProcess;
  shard1: BotProcess;
}

/** Shard `id` of 2, debug-logged (the DM hand-overs show), with the persona editor on the model fake. */
function shard(w: Pick<ShardedWorld, 'sim' | 'url' | 'model'>, id: number): BotProcess {
  return startBot(w.sim, {
    DATABASE_URL: w.url,
    SHARD_IDS: String(id),
    SHARD_COUNT: '2',
    LOG_LEVEL: 'debug',
    ANTHROPIC_API_KEY: 'sk-test',
    ANTHROPIC_BASE_URL: w.model.baseURL,
  });
}

const serving = (bot: BotProcess) => bot.output().includes('serving shard(s)');
const both = (w: ShardedWorld) => [w.shard0, w.shard1];

/** What a process printed from now on. */
function outputFromNow(bot: BotProcess): () => string {
  const from = bot.output().length;
  return () => bot.output().slice(from);
}

/** The DMs each person gets from now on. */
function dmsFromNow(sim: DiscordSim): (name: Human) => SimMessage[] {
  const before = new Set(HUMANS.flatMap((name) => sim.dmsTo(name).map((m) => m.id)));
  return (name) => sim.dmsTo(name).filter((m) => !before.has(m.id));
}

/** A game started in a channel, and what its people were told by DM since. */
interface Game {
  readonly id: string;
  readonly dms: (name: Human) => SimMessage[];
}

/** alice opens a game in `channel`, bob, carol and dave join, one AI persona sits down, alice starts it. */
async function startGame(w: ShardedWorld, channel: string, options: Record<string, string | number>): Promise<Game> {
  const { sim } = w;
  const dms = dmsFromNow(sim);
  const lobby = await sim.user('alice').slash(channel, 'mafia', { subcommand: 'create', options }).public();
  const join = customIds(lobby).find((id) => id.startsWith('lobby:join:'));
  if (!join) throw new Error('the lobby has no Join button');
  const game = { id: join.split(':')[2]!, dms };
  for (const name of ['bob', 'carol', 'dave']) await sim.user(name).click(lobby, join).updated();
  await sim
    .user('alice')
    .slash(channel, 'mafia', { subcommand: 'add-ai', options: { persona: 'Sherlock Holmes' } })
    .ephemeral();
  await sim.user('alice').click(lobby, `lobby:start:${game.id}`).updated();
  await until(() => HUMANS.every((name) => roleOf(game, name) !== null), 'every person has their role card', both(w));
  return game;
}

function customIds(m: SimMessage): string[] {
  const rows = m.components as { components: { custom_id?: string }[] }[];
  return rows.flatMap((row) => row.components.flatMap((c) => (c.custom_id ? [c.custom_id] : [])));
}

function roleOf(game: Game, name: Human): string | null {
  for (const m of game.dms(name)) {
    const role = /You are the (\w+)/.exec(messageText(m));
    if (role) return role[1]!;
  }
  return null;
}

/** The newest night menu of the game in this person's DMs, with its first target. */
function nightMenu(game: Game, name: Human): { message: SimMessage; customId: string; target: string } | null {
  for (const message of game.dms(name).toReversed()) {
    const rows = message.components as { components: { custom_id?: string; options?: { value: string }[] }[] }[];
    for (const c of rows.flatMap((row) => row.components)) {
      const target = c.options?.find((o) => o.value !== SKIP_VALUE)?.value;
      if (c.custom_id?.startsWith(`night:${game.id}:`) && target) return { message, customId: c.custom_id, target };
    }
  }
  return null;
}

async function pick(sim: DiscordSim, game: Game, name: Human): Promise<string> {
  const menu = nightMenu(game, name)!;
  return messageText(await sim.user(name).select(menu.message, menu.customId, [menu.target]).ephemeral());
}

async function stored(db: Database, gameId: string) {
  const game = await db.prisma.game.findUniqueOrThrow({ where: { id: gameId } });
  const events = await db.prisma.gameEvent.findMany({ where: { gameId }, orderBy: { seq: 'asc' } });
  const night = events.filter((e) => e.type === 'night_action' || e.type === 'mafia_proposal');
  const actedBy = (userId: string) => night.filter((e) => (e.payload as { actorId?: string }).actorId === userId).length;
  return { game, events, actedBy };
}

describeSharded('two shard processes on one PostgreSQL server (SHARD_IDS=0 and SHARD_IDS=1 of SHARD_COUNT=2)', () => {
  let world: ShardedWorld | undefined;
  beforeAll(async () => {
    const { url, db } = await sharedDatabase('sharded_game');
    const sim = await startDiscordSim({
      guilds: [
        {
          name: 'One',
          channels: ['game', 'restart'],
          members: [{ name: 'alice', owner: true }, 'bob', 'carol', 'dave'],
          botPermissions: BOT_DEFAULT & ~P.CreatePrivateThreads,
          everyonePermissions: EVERYONE_DEFAULT & ~P.CreatePrivateThreads,
          onShard: { shard: 1, of: 2 },
        },
      ],
    });
    const model = await startFakeAnthropic();
    world = { sim, url, db, model, shard0: shard({ sim, url, model }, 0), shard1: shard({ sim, url, model }, 1) };
    await until(() => serving(world!.shard0) && serving(world!.shard1), 'both shards serve', both(world));
  });
  afterAll(async () => {
    if (!world) return;
    for (const bot of both(world)) await kill(bot);
    await world.model.close();
    await world.sim.close();
    await world.db.close();
  });
  const w = (): ShardedWorld => {
    if (!world) throw new Error('the shard processes did not start');
    return world;
  };

  it("GIVEN a guild on shard 1 WHEN people and an AI play a game there, the people acting at night by DM (which Discord sends to shard 0) THEN shard 0 hands every DM to shard 1, which answers it and relays the Mafia's DM chat, and the game plays to its end", async () => {
    const { sim, db, shard0 } = w();
    const shard0Said = outputFromNow(shard0);
    const failed = sim.failedRequests().length;

    // Two Mafia among five: the first night's kill leaves them at parity, so the game ends at dawn.
    const game = await startGame(w(), 'game', { roles: 'mafia x2, detective, townsperson x2', 'night-seconds': 30 });
    const acting = HUMANS.filter((name) => ['Mafia', 'Detective'].includes(roleOf(game, name) ?? ''));
    await until(() => acting.every((name) => nightMenu(game, name) !== null), 'the people who act at night have their menus', both(w()));

    // No thread for the Mafia here: a Mafia's DM is their team chat, and it belongs to shard 1's game.
    const mafioso = HUMANS.find((name) => roleOf(game, name) === 'Mafia')!;
    // They learn that their DMs are the team's chat from the bot: only then do they write (a DM before it is not team chat yet).
    await until(
      () => game.dms(mafioso).some((m) => messageText(m).includes('The Mafia are')),
      'the Mafia are told their chat is by DM',
      both(w()),
    );
    sim.user(mafioso).dm('The quiet one tonight.');
    await until(
      async () =>
        (await stored(db, game.id)).events.some((e) => e.type === 'speech' && JSON.stringify(e.payload).includes('The quiet one tonight.')),
      "the Mafia's DM is in the game's log",
      both(w()),
    );
    for (const name of acting) expect(await pick(sim, game, name)).toMatch(/^Noted/);

    await until(async () => (await stored(db, game.id)).game.status === 'ended', 'the game has ended', both(w()));
    const after = await stored(db, game.id);
    for (const name of acting) expect(after.actedBy(sim.user(name).id)).toBeGreaterThanOrEqual(1);
    expect(after.events.map((e) => e.type)).toContain('game_ended');
    // Every DM went through shard 0 to shard 1; shard 0 never ran the game itself.
    expect(shard0Said()).toContain('handed to shard 1');
    expect(shard0Said()).not.toContain('resumed');
    // Only the Mafia thread the bot may not create failed.
    expect(
      sim
        .failedRequests()
        .slice(failed)
        .map((r) => r.route),
    ).toEqual(['/channels/:channelId/threads']);
  }, 180_000);

  describe('persona editor across shards', () => {
    it('GIVEN a persona alice created in a guild on shard 1 WHEN she opens its editor in her DMs and writes there (DMs reach shard 0) THEN shard 0 runs the conversation itself from the database and answers', async () => {
      const { sim, db, model, shard0 } = w();
      const shard0Said = outputFromNow(shard0);
      const created = await sim
        .user('alice')
        .slash('game', 'persona', {
          subcommand: 'create',
          options: { name: 'Ada Lovelace', text: 'Ada Lovelace was a mathematician who wrote the first program for a machine.' },
        })
        .ephemeral();
      expect(messageText(created)).toMatch(/Created \*\*Ada Lovelace\*\*/);
      const ada = await db.prisma.persona.findFirstOrThrow({ where: { name: 'Ada Lovelace' } });

      const opened = await sim
        .user('alice')
        .slash('dm', 'persona', { subcommand: 'edit', options: { persona: ada.id } })
        .ephemeral();
      expect(messageText(opened)).toMatch(/Editing \*\*Ada Lovelace\*\* here/);
      model.enqueue(reply.text('Ada will be bolder.'));
      sim.user('alice').dm('Make her bolder.');
      await until(
        () => sim.dmsTo('alice').some((m) => messageText(m).includes('Ada will be bolder.')),
        "the editor's answer is in her DMs",
        both(w()),
      );
      expect(model.last.system).toContain('Ada Lovelace');
      expect(shard0Said()).not.toContain('handed to shard');
    }, 120_000);
  });

  it('GIVEN a night where some people have acted by DM WHEN both shard processes are killed (SIGKILL) and started again THEN only shard 1 resumes the game, at the same night with the same deadline, every submitted action kept once, and the last person can still act by DM and end the night', async () => {
    const { sim, db } = w();
    // One AI among five with three night roles: at least two people act at night. A long night waits for everyone.
    const game = await startGame(w(), 'restart', { roles: 'mafia, detective, doctor, townsperson x2', 'night-seconds': 600 });
    const acting = HUMANS.filter((name) => ['Mafia', 'Detective', 'Doctor'].includes(roleOf(game, name) ?? ''));
    expect(acting.length).toBeGreaterThanOrEqual(2);
    await until(() => acting.every((name) => nightMenu(game, name) !== null), 'the night menus are out', both(w()));
    const [last, ...first] = acting.toReversed();
    for (const name of first) expect(await pick(sim, game, name)).toMatch(/^Noted/);
    const before = await stored(db, game.id);
    expect(before.game.phase).toBe('night');

    // Both die; the game's own shard takes it up again, shard 0 does not.
    await kill(w().shard1);
    await kill(w().shard0);
    w().shard1 = shard(w(), 1);
    w().shard0 = shard(w(), 0);
    const { shard0, shard1 } = w();
    await until(() => serving(shard0) && serving(shard1), 'both shards serve again', both(w()));
    expect(shard1.output()).toContain('resumed 1 running game(s)');
    expect(shard0.output()).not.toContain('resumed');
    const resumed = await stored(db, game.id);
    expect({ phase: resumed.game.phase, day: resumed.game.day, deadline: resumed.game.deadline }).toEqual({
      phase: 'night',
      day: before.game.day,
      deadline: before.game.deadline,
    });

    expect(await pick(sim, game, last!)).toMatch(/^Noted/);
    await until(async () => (await stored(db, game.id)).game.phase !== 'night', 'the night is over', both(w()));
    const after = await stored(db, game.id);
    for (const name of acting) expect(after.actedBy(sim.user(name).id)).toBe(1);
    expect(after.events.filter((e) => e.type === 'night_resolved')).toHaveLength(1);
  }, 180_000);
});

it('GIVEN SHARDS=2 on the embedded PGlite database WHEN the bot starts THEN it stops at once saying a PostgreSQL server is needed', async () => {
  const sim = await startDiscordSim();
  cleanups.push(() => sim.close());
  const bot = startBot(sim, { SHARDS: '2', DATABASE_URL: './data/never-created-by-this-test' });
  cleanups.push(() => kill(bot));
  expect(await bot.exited).not.toBe(0);
  expect(bot.output()).toContain('DATABASE_URL: more than one shard process needs a PostgreSQL server');
  expect(bot.output()).toContain('DATABASE_URL=postgres://');
});
