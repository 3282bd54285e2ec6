/**
 * One world for the tests of a file (starting one costs more than most tests): `tidy` after each
 * test undoes what it left behind (faults lifted, people who left back in the server, open games
 * ended, personas it made deleted), and `fromNow`/`appended` read only what a test itself added
 * to what the simulator and the fakes record, so each test asserts what it would in a fresh
 * world, in any order, alone or in its file.
 */
import * as engine from '../../../src/game/index.ts';
import type { Bot } from '../../../src/bot.ts';
import { MEMBERS, type World } from './harness.ts';

const undos = new WeakMap<World, (() => unknown)[]>();

/** Something to undo when this test is over, pass or fail (a fault lifted): the first thing `tidy` does. */
export function afterTest(w: World, undo: () => unknown): void {
  const list = undos.get(w) ?? [];
  list.push(undo);
  undos.set(w, list);
}

/** Leaves the world as the next test expects to find it; what cannot be undone fails the test that left it. */
export async function tidy(w: World): Promise<void> {
  for (const undo of (undos.get(w) ?? []).splice(0).reverse()) await undo();
  const guild = w.sim.guild('Club');
  for (const member of MEMBERS) if (!guild.members.has(w.sim.user(member.name).id)) w.sim.addMember(guild, member);
  await w.bot.idle();

  // Every open game ends, those stored by an earlier process (not loaded yet) too, each by the bot that runs its server.
  for (const { bot, guildId } of runners(w)) {
    const open = await w.db.prisma.game.findMany({
      where: { status: { not: 'ended' }, ...(guildId && { guildId }) },
      select: { channelId: true },
    });
    for (const { channelId } of open) if (channelId !== null) await bot.liveGames.inChannel(channelId);
    for (const liveGame of bot.liveGames.live) {
      const ended = await liveGame.submit((s, at) => engine.cancel(s, { by: null, reason: 'the test is over', at }));
      if (!ended.ok) throw new Error(`game ${liveGame.state.id} left open by the test could not be ended: ${ended.error.message}`);
    }
    await bot.idle();
    if (bot.liveGames.live.length > 0) throw new Error(`${bot.liveGames.live.length} live games left open by the test`);
  }
  const stillOpen = await w.db.prisma.game.count({ where: { status: { not: 'ended' } } });
  if (stillOpen > 0) throw new Error(`${stillOpen} games left open by the test`);

  // The personas the test made (the built-in ones are read-only).
  const made = await w.db.prisma.persona.findMany({ where: { builtIn: false }, select: { id: true, ownerId: true, guildId: true } });
  for (const p of made) {
    const removed = await w.personas.remove({ userId: p.ownerId, guildId: p.guildId, canManageServer: true }, p.id);
    if (!removed.ok) throw new Error(`persona ${p.id} made by the test could not be deleted: ${removed.error.message}`);
  }
  await w.bot.idle();
}

/** Each bot of the world with the server whose games it runs (every server's, unsharded). */
function runners(w: World): { bot: Bot; guildId: string | undefined }[] {
  if (!w.dmShard) return [{ bot: w.bot, guildId: undefined }];
  return [
    { bot: w.bot, guildId: w.sim.guild('Club').id },
    { bot: w.dmShard.bot, guildId: w.sim.guild(w.dmShard.guild).id },
  ];
}

/** What `list` gives from now on that it did not give now (by id): what the test added to a shared channel, DMs or threads. */
export function fromNow<T extends { readonly id: string }>(list: () => readonly T[]): () => T[] {
  const before = new Set(list().map((item) => item.id));
  return () => list().filter((item) => !before.has(item.id));
}

/** What is appended to a log that only grows (REST calls, requests to a fake, log lines) from now on. */
export function appended<T>(log: () => readonly T[]): () => T[] {
  const before = log().length;
  return () => log().slice(before);
}
