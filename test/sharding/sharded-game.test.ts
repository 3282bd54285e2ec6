/**
 * Issue 14 §3–4: the bot as several shard processes on one PostgreSQL server. A game belongs to its
 * guild's shard; DMs reach only shard 0, which hands the ones of other shards' games over through
 * the database; a shard killed mid-night comes back with every submitted night action, once.
 */
import { afterEach, expect, it } from 'vitest';
import { messageText, startDiscordSim, type DiscordSim, type SimMessage } from '../../scripts/fakes/discord/index.ts';
import { BOT_DEFAULT, EVERYONE_DEFAULT, P } from '../../scripts/fakes/discord/permissions.ts';
import type { Database } from '../../src/db/open-database.ts';
import { SKIP_VALUE } from '../../src/discord/presenters/night-action.ts';
import { startFakeAnthropic } from '../../scripts/fakes/llm/fake-anthropic.ts';
import { reply } from '../../scripts/fakes/llm/fake-llm-server.ts';
import { describeSharded, kill, sharedDatabase, startBot, until, type BotProcess } from './shard-processes.ts';

const HUMANS = ['alice', 'bob', 'carol', 'dave'] as const;
type Human = (typeof HUMANS)[number];

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A guild Discord routes to shard 1 of 2, where the bot may not create private threads: the Mafia chat by DM. */
async function world(name: string): Promise<{ sim: DiscordSim; url: string; db: Database }> {
  const { url, db } = await sharedDatabase(name);
  cleanups.push(() => db.close());
  const sim = await startDiscordSim({
    guilds: [
      {
        name: 'One',
        channels: ['game'],
        members: [{ name: 'alice', owner: true }, 'bob', 'carol', 'dave'],
        botPermissions: BOT_DEFAULT & ~P.CreatePrivateThreads,
        everyonePermissions: EVERYONE_DEFAULT & ~P.CreatePrivateThreads,
        onShard: { shard: 1, of: 2 },
      },
    ],
  });
  cleanups.push(() => sim.close());
  return { sim, url, db };
}

function shard(sim: DiscordSim, url: string, id: number, env: Record<string, string> = {}): BotProcess {
  const bot = startBot(sim, { DATABASE_URL: url, SHARD_IDS: String(id), SHARD_COUNT: '2', ...env });
  cleanups.push(() => kill(bot));
  return bot;
}

const serving = (bot: BotProcess, times = 1) => bot.output().split('serving shard(s)').length - 1 >= times;

/** alice opens a game in #game, bob, carol and dave join, one AI persona sits down, alice starts it. Returns its id. */
async function startGame(sim: DiscordSim, watched: BotProcess[], options: Record<string, string | number>): Promise<string> {
  const lobby = await sim.user('alice').slash('game', 'mafia', { subcommand: 'create', options }).public();
  const join = customIds(lobby).find((id) => id.startsWith('lobby:join:'));
  if (!join) throw new Error('the lobby has no Join button');
  const gameId = join.split(':')[2]!;
  for (const name of ['bob', 'carol', 'dave']) await sim.user(name).click(lobby, join).updated();
  await sim
    .user('alice')
    .slash('game', 'mafia', { subcommand: 'add-ai', options: { persona: 'Sherlock Holmes' } })
    .ephemeral();
  await sim.user('alice').click(lobby, `lobby:start:${gameId}`).updated();
  await until(() => HUMANS.every((name) => roleOf(sim, name) !== null), 'every person has their role card', watched);
  return gameId;
}

function customIds(m: SimMessage): string[] {
  const rows = m.components as { components: { custom_id?: string }[] }[];
  return rows.flatMap((row) => row.components.flatMap((c) => (c.custom_id ? [c.custom_id] : [])));
}

function roleOf(sim: DiscordSim, name: Human): string | null {
  for (const m of sim.dmsTo(name)) {
    const role = /You are the (\w+)/.exec(messageText(m));
    if (role) return role[1]!;
  }
  return null;
}

/** The newest night menu in this person's DMs, with its first target. */
function nightMenu(sim: DiscordSim, name: Human, gameId: string): { message: SimMessage; customId: string; target: string } | null {
  for (const message of sim.dmsTo(name).toReversed()) {
    const rows = message.components as { components: { custom_id?: string; options?: { value: string }[] }[] }[];
    for (const c of rows.flatMap((row) => row.components)) {
      const target = c.options?.find((o) => o.value !== SKIP_VALUE)?.value;
      if (c.custom_id?.startsWith(`night:${gameId}:`) && target) return { message, customId: c.custom_id, target };
    }
  }
  return null;
}

async function pick(sim: DiscordSim, name: Human, gameId: string): Promise<string> {
  const menu = nightMenu(sim, name, gameId)!;
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
  it("GIVEN a guild on shard 1 WHEN people and an AI play a game there, the people acting at night by DM (which Discord sends to shard 0) THEN shard 0 hands every DM to shard 1, which answers it and relays the Mafia's DM chat, and the game plays to its end", async () => {
    const { sim, url, db } = await world('sharded_game');
    const shard0 = shard(sim, url, 0, { LOG_LEVEL: 'debug' });
    const shard1 = shard(sim, url, 1);
    const both = [shard0, shard1];
    await until(() => serving(shard0) && serving(shard1), 'both shards serve', both);

    // Two Mafia among five: the first night's kill leaves them at parity, so the game ends at dawn.
    const gameId = await startGame(sim, both, { roles: 'mafia x2, detective, townsperson x2', 'night-seconds': 30 });
    const acting = HUMANS.filter((name) => ['Mafia', 'Detective'].includes(roleOf(sim, name) ?? ''));
    await until(() => acting.every((name) => nightMenu(sim, name, gameId) !== null), 'the people who act at night have their menus', both);

    // No thread for the Mafia here: a Mafia's DM is their team chat, and it belongs to shard 1's game.
    const mafioso = HUMANS.find((name) => roleOf(sim, name) === 'Mafia')!;
    // They learn that their DMs are the team's chat from the bot: only then do they write (a DM before it is not team chat yet).
    await until(
      () => sim.dmsTo(mafioso).some((m) => messageText(m).includes('The Mafia are')),
      'the Mafia are told their chat is by DM',
      both,
    );
    sim.user(mafioso).dm('The quiet one tonight.');
    await until(
      async () =>
        (await stored(db, gameId)).events.some((e) => e.type === 'speech' && JSON.stringify(e.payload).includes('The quiet one tonight.')),
      "the Mafia's DM is in the game's log",
      both,
    );
    for (const name of acting) expect(await pick(sim, name, gameId)).toMatch(/^Noted/);

    await until(async () => (await stored(db, gameId)).game.status === 'ended', 'the game has ended', both);
    const after = await stored(db, gameId);
    for (const name of acting) expect(after.actedBy(sim.user(name).id)).toBeGreaterThanOrEqual(1);
    expect(after.events.map((e) => e.type)).toContain('game_ended');
    // Every DM went through shard 0 to shard 1; shard 0 never ran the game itself.
    expect(shard0.output()).toContain('handed to shard 1');
    expect(shard0.output()).not.toContain('resumed');
    // Only the Mafia thread the bot may not create failed.
    expect(sim.failedRequests().map((r) => r.route)).toEqual(['/channels/:channelId/threads']);
  }, 180_000);

  it('GIVEN a night where some people have acted by DM WHEN both shard processes are killed (SIGKILL) and started again THEN only shard 1 resumes the game, at the same night with the same deadline, every submitted action kept once, and the last person can still act by DM and end the night', async () => {
    const { sim, url, db } = await world('sharded_restart');
    let shard0 = shard(sim, url, 0);
    let shard1 = shard(sim, url, 1);
    await until(() => serving(shard0) && serving(shard1), 'both shards serve', [shard0, shard1]);

    // One AI among five with three night roles: at least two people act at night. A long night waits for everyone.
    const gameId = await startGame(sim, [shard0, shard1], { roles: 'mafia, detective, doctor, townsperson x2', 'night-seconds': 600 });
    const acting = HUMANS.filter((name) => ['Mafia', 'Detective', 'Doctor'].includes(roleOf(sim, name) ?? ''));
    expect(acting.length).toBeGreaterThanOrEqual(2);
    await until(() => acting.every((name) => nightMenu(sim, name, gameId) !== null), 'the night menus are out', [shard0, shard1]);
    const [last, ...first] = acting.toReversed();
    for (const name of first) expect(await pick(sim, name, gameId)).toMatch(/^Noted/);
    const before = await stored(db, gameId);
    expect(before.game.phase).toBe('night');

    // Both die; the game's own shard takes it up again, shard 0 does not.
    await kill(shard1);
    await kill(shard0);
    shard1 = shard(sim, url, 1);
    shard0 = shard(sim, url, 0);
    await until(() => serving(shard0) && serving(shard1), 'both shards serve again', [shard0, shard1]);
    expect(shard1.output()).toContain('resumed 1 running game(s)');
    expect(shard0.output()).not.toContain('resumed');
    const resumed = await stored(db, gameId);
    expect({ phase: resumed.game.phase, day: resumed.game.day, deadline: resumed.game.deadline }).toEqual({
      phase: 'night',
      day: before.game.day,
      deadline: before.game.deadline,
    });

    expect(await pick(sim, last!, gameId)).toMatch(/^Noted/);
    await until(async () => (await stored(db, gameId)).game.phase !== 'night', 'the night is over', [shard0, shard1]);
    const after = await stored(db, gameId);
    for (const name of acting) expect(after.actedBy(sim.user(name).id)).toBe(1);
    expect(after.events.filter((e) => e.type === 'night_resolved')).toHaveLength(1);
  }, 180_000);
});

describeSharded('persona editor across shards', () => {
  it('GIVEN a persona alice created in a guild on shard 1 WHEN she opens its editor in her DMs and writes there (DMs reach shard 0) THEN shard 0 runs the conversation itself from the database and answers', async () => {
    const { sim, url, db } = await world('sharded_editor');
    const model = await startFakeAnthropic();
    cleanups.push(() => model.close());
    const editor = { ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: model.baseURL, LOG_LEVEL: 'debug' };
    const shard0 = shard(sim, url, 0, editor);
    const shard1 = shard(sim, url, 1, editor);
    await until(() => serving(shard0) && serving(shard1), 'both shards serve', [shard0, shard1]);

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
    await until(() => sim.dmsTo('alice').some((m) => messageText(m).includes('Ada will be bolder.')), "the editor's answer is in her DMs", [
      shard0,
      shard1,
    ]);
    expect(model.last.system).toContain('Ada Lovelace');
    expect(shard0.output()).not.toContain('handed to shard');
  }, 120_000);
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
