/** INTERACTION_TRACE: the moment each interaction reaches the router, logged only when asked for. */
import { afterEach, describe, expect, it } from 'vitest';
import { ManualTimers } from '../../src/clock.ts';
import { startBot, type Bot } from '../../src/bot.ts';
import { createDiscordClient, loginClient } from '../../src/discord/client.ts';
import { readInteractionTrace } from '../../src/discord/interaction-trace.ts';
import { createGameStore } from '../../src/db/game-store.ts';
import { createLlmCallStore } from '../../src/db/llm-call-store.ts';
import type { Database } from '../../src/db/open-database.ts';
import { createPersonaStore } from '../../src/db/persona-store.ts';
import { createRatingStore } from '../../src/db/rating-store.ts';
import { createStatsStore } from '../../src/db/stats-store.ts';
import type { Logger } from '../../src/log.ts';
import { startDiscordSim, type DiscordSim } from '../../scripts/fakes/discord/index.ts';
import { OFFLINE } from './bot/harness.ts';
import { T0 } from '../support/test-game.ts';
import { openTestDatabase } from '../support/test-database.ts';

let opened: { sim: DiscordSim; db: Database; bot: Bot } | null = null;
afterEach(async () => {
  await opened?.bot.stop();
  await opened?.sim.close();
  await opened?.db.close();
  opened = null;
});

/** A bot on the simulator whose log keeps every line, at every level. */
async function botLogging(trace: { traceInteractions?: boolean }): Promise<{ sim: DiscordSim; lines: string[] }> {
  const sim = await startDiscordSim({ guilds: [{ name: 'Club', channels: ['game'], members: [{ name: 'alice', owner: true }] }] });
  const db = await openTestDatabase('withStarters');
  const lines: string[] = [];
  const keep = (line: string) => void lines.push(line);
  const log: Logger = { debug: keep, info: keep, warn: keep, error: keep };
  const client = await loginClient(createDiscordClient({ apiUrl: sim.restApi }), sim.token);
  sim.onClose(() => client.destroy());
  const bot = await startBot({
    client,
    log,
    games: createGameStore(db.prisma),
    personas: createPersonaStore(db.prisma),
    stats: createStatsStore(db.prisma),
    ratings: createRatingStore(db.prisma),
    llmCalls: createLlmCallStore(db.prisma),
    llm: OFFLINE,
    timers: new ManualTimers(T0),
    ...trace,
  });
  opened = { sim, db, bot };
  return { sim, lines };
}

describe('the interaction trace', () => {
  it('GIVEN a bot started without the trace (the default) WHEN someone uses a command THEN it is answered and no trace line is logged', async () => {
    const { sim, lines } = await botLogging({});

    await sim.user('alice').slash('game', 'mafia', { subcommand: 'status' }).ephemeral();

    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((line) => readInteractionTrace(line) !== null)).toEqual([]);
  });

  it('GIVEN a bot started with the trace WHEN someone uses a command THEN one line says when it reached the router, between its dispatch and its acknowledgement', async () => {
    const { sim, lines } = await botLogging({ traceInteractions: true });

    const handle = sim.user('alice').slash('game', 'mafia', { subcommand: 'status' });
    await handle.ephemeral();

    const traced = lines.flatMap((line) => readInteractionTrace(line) ?? []);
    expect(traced.map((t) => t.id)).toEqual([handle.id]);
    const [arrival] = traced;
    expect(arrival?.at).toBeGreaterThanOrEqual(handle.interaction.dispatchedAt ?? Number.POSITIVE_INFINITY);
    expect(arrival?.at).toBeLessThanOrEqual(handle.interaction.callbacks[0]?.at ?? Number.NEGATIVE_INFINITY);
  });
});
