import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LiveTable } from '../../../src/discord/tables.ts';
import { personaName } from '../../../src/persona/persona.ts';
import { startWorld, type World } from './harness.ts';

let w: World;
beforeEach(async () => {
  w = await startWorld();
});
afterEach(() => w.close());

const HUMANS = ['alice', 'bob', 'carol'] as const;

/** Everything the bot and the AI seats owe right now is done and delivered. */
async function settle(table: LiveTable): Promise<void> {
  for (let i = 0; i < 4; i++) {
    await w.bot.idle();
    await table.driver?.idle();
  }
  await w.bot.idle();
}

/** alice hosts; bob and carol join; the AI personas fill the table; the game is started and night 1 has begun. */
async function startGame(ai: readonly string[] = ['Sherlock Holmes', 'Hercule Poirot'], options: Record<string, string | number | boolean> = {}): Promise<LiveTable> {
  const lobby = await w.sim.user('alice').slash('game', 'mafia', { subcommand: 'create', options }).public();
  const table = w.bot.tables.live[0]!;
  for (const name of ['bob', 'carol']) await w.sim.user(name).click(lobby, `lobby:join:${table.state.id}`).updated();
  for (const persona of ai) await w.sim.user('alice').slash('game', 'mafia', { subcommand: 'add-ai', options: { persona } }).ephemeral();
  await w.sim.user('alice').click(lobby, `lobby:start:${table.state.id}`).updated();
  await w.sim.until(() => table.driver !== null);
  await settle(table);
  return table;
}

/** The clock jumps to the phase deadline; returns once the next phase has begun and its output is out. */
async function nextPhase(table: LiveTable): Promise<void> {
  const { phase, day, deadline } = table.state;
  w.timers.advanceTo(deadline!);
  await w.sim.until(() => table.state.phase !== phase || table.state.day !== day, { timeoutMs: 5000 });
  await settle(table);
}

describe('AI personas in a running game', () => {
  it('GIVEN a persona with an avatar (and nobody killed on night 1) WHEN it speaks by day THEN its webhook message carries its name and avatar', async () => {
    const alice = w.sim.user('alice');
    const actor = { userId: alice.id, guildId: w.sim.guild().id, canManageServer: true };
    const source = await w.personas.getByName(actor, 'Sherlock Holmes');
    if (!source.ok) throw new Error(source.error.message);
    const { profile, tags, notes, parts, traits, arc, card } = source.value;
    const avatarUrl = 'https://cdn.example.com/ada.png';
    const created = await w.personas.create(actor, {
      scope: { kind: 'server', guildId: w.sim.guild().id },
      content: { profile: { ...profile, identity: { ...profile.identity, name: 'Ada Lovelace' } }, avatarUrl, tags, notes, parts, traits, arc, card },
    });
    if (!created.ok) throw new Error(created.error.message);
    expect(personaName(created.value)).toBe('Ada Lovelace');

    const table = await startGame(['Ada Lovelace', 'Hercule Poirot'], { 'night-one-kill': false });
    for (let i = 0; i < 6 && !w.sim.webhookMessages('game').some((m) => m.displayName === 'Ada Lovelace' && m.channelId === w.sim.channel('game').id); i++) {
      if (table.state.phase === 'ended') break;
      await nextPhase(table);
    }
    const ada = w.sim.webhookMessages().filter((m) => m.displayName === 'Ada Lovelace');
    expect(ada.length).toBeGreaterThan(0);
    for (const m of ada) expect(m.avatarUrl).toBe(avatarUrl);
    for (const m of w.sim.webhookMessages().filter((m) => m.displayName === 'Hercule Poirot')) expect(m.avatarUrl).toBeNull();
  });
});
