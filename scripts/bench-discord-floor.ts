/**
 * The floor of this machine for acknowledging interactions: a run's interactions started again, in
 * the same bursts, against a bare discord.js client that only acknowledges each one (deferred, as
 * fast as discord.js can). The machine is shared and busy by turns, so the bot's p99 is read as a
 * ratio to this floor measured in the same run: a noisy machine neither hides nor fakes progress.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Events, MessageFlags, type Interaction } from 'discord.js';
import { createDiscordClient, loginClient } from '../src/discord/client.ts';
import type { DiscordSim, InteractionHandle } from './fakes/discord/index.ts';

/** Longer pauses of the run (people waiting for the clock, the bot posting under the REST cap) are cut to this. */
const MAX_GAP_MS = 100;

async function acknowledge(i: Interaction): Promise<void> {
  if (i.isMessageComponent()) await i.deferUpdate();
  else if (i.isRepliable()) await i.deferReply({ flags: MessageFlags.Ephemeral });
}

/**
 * Starts each recorded interaction again, keeping the run's spacing up to MAX_GAP_MS, while the
 * bare client answers; returns the acknowledgement latencies (ms), unanswered ones left out.
 * The bot's own client must be gone by then.
 */
export async function acknowledgementFloor(
  sim: DiscordSim,
  recorded: readonly InteractionHandle[],
  globalRequestsPerSecond?: number,
): Promise<number[]> {
  const client = await loginClient(createDiscordClient({ apiUrl: sim.restApi, globalRequestsPerSecond }), sim.token);
  client.on(Events.InteractionCreate, (i) => void acknowledge(i).catch(() => undefined));
  try {
    const replayed: InteractionHandle[] = [];
    const originals = recorded.map((h) => h.interaction).sort((a, b) => a.createdAt - b.createdAt);
    let previous: number | null = null;
    for (const original of originals) {
      const gap = previous === null ? 0 : Math.min(MAX_GAP_MS, original.createdAt - previous);
      previous = original.createdAt;
      if (gap >= 1) await sleep(gap);
      replayed.push(sim.replay(original));
    }
    await Promise.all(replayed.map((h) => h.ack().catch(() => undefined)));
    return replayed.map((h) => h.ackLatencyMs).filter((ms): ms is number => ms !== null);
  } finally {
    await client.destroy();
  }
}
