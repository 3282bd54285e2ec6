/** Deleting a persona that holds a seat in an open lobby: its owner is told first, and the lobby after. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { messageText } from '../../../scripts/fakes/discord/index.ts';
import { startWorld, type World } from './harness.ts';
import { fromNow, tidy } from './shared-world.ts';

let w: World;
beforeAll(async () => {
  w = await startWorld();
});
afterEach(() => tidy(w));
afterAll(() => w.close());

/** Each answer here waits on the database and Discord: patient on a loaded machine. */
const PATIENT = { timeoutMs: 15_000 };

const GINA = 'Gina Marsh was a sharp-eyed harbour pilot who read every captain by his hands. She trusted tides more than people.';

const persona = (subcommand: string, options: Record<string, string>) =>
  w.sim.user('alice').slash('game', 'persona', { subcommand, options });

async function ginaId(): Promise<string> {
  const row = await w.db.prisma.persona.findFirst({ where: { name: 'Gina' }, select: { id: true } });
  if (!row) throw new Error('no Gina');
  return row.id;
}

/** alice makes Gina and opens a lobby in #game; `seated` puts Gina in it. */
async function lobbyWithGina({ seated }: { seated: boolean }) {
  await persona('create', { name: 'Gina', text: GINA }).ephemeral(PATIENT);
  const lobby = await w.sim.user('alice').slash('game', 'mafia', { subcommand: 'create' }).public(PATIENT);
  const liveGame = w.bot.liveGames.live[0]!;
  if (seated)
    await w.sim
      .user('alice')
      .slash('game', 'mafia', { subcommand: 'add-ai', options: { persona: 'Gina' } })
      .ephemeral(PATIENT);
  return { lobby, liveGame, id: await ginaId() };
}

const ginaSeated = (liveGame: { state: { players: readonly { name: string }[] } }) => liveGame.state.players.some((p) => p.name === 'Gina');

describe('deleting a persona seated in an open lobby', () => {
  it('GIVEN Gina seated in alice’s lobby WHEN alice deletes Gina THEN she is told it is seated and where, Keep changes nothing, and Delete frees the seat with a notice in the lobby', async () => {
    const { lobby, liveGame, id } = await lobbyWithGina({ seated: true });
    const said = fromNow(() => w.sim.messagesIn('game'));
    const lobbyNow = () => messageText(w.sim.messagesIn('game').find((m) => m.id === lobby.id)!);
    // Lobby edits are paced: what changed shows within two seconds.
    const lobbyShown = async () => {
      await w.bot.idle();
      w.timers.advanceTo(w.timers.now() + 2000);
      await w.bot.idle();
      return lobbyNow();
    };
    expect(await lobbyShown()).toContain('Gina');

    const asked = await persona('delete', { persona: 'Gina' }).ephemeral(PATIENT);
    expect(messageText(asked)).toContain(
      `**Gina** is seated in the lobby in <#${w.sim.channel('game').id}>. Delete it for good and free that seat (the lobby is told), or keep it and have it removed from the lobby first (\`/mafia remove\`, by the host)?`,
    );
    expect(messageText(asked)).toMatch(/Delete and free the seat\nKeep it$/);

    expect(messageText(await w.sim.user('alice').click(asked, `persona-delete:no:${id}`).updated(PATIENT))).toBe(
      'Kept; nothing was deleted.',
    );
    expect(ginaSeated(liveGame)).toBe(true);
    expect(await w.db.prisma.persona.count({ where: { id } })).toBe(1);

    const again = await persona('delete', { persona: 'Gina' }).ephemeral(PATIENT);
    expect(messageText(await w.sim.user('alice').click(again, `persona-delete:yes:${id}`).updated(PATIENT))).toBe(
      `Deleted **Gina**. Its seat in <#${w.sim.channel('game').id}> is free, and the lobby was told.`,
    );
    expect(ginaSeated(liveGame)).toBe(false);
    expect(await w.db.prisma.persona.count({ where: { id } })).toBe(0);
    await w.bot.idle();
    expect(said().map(messageText)).toContain('📢 Gina left the lobby: its owner deleted the persona.');
    expect(await lobbyShown()).not.toContain('Gina');
  });

  it('GIVEN alice asked to delete Gina while unseated WHEN Gina is seated before she confirms THEN the confirmed deletion frees that seat too, and the lobby is told', async () => {
    const { liveGame, id } = await lobbyWithGina({ seated: false });
    const said = fromNow(() => w.sim.messagesIn('game'));
    const asked = await persona('delete', { persona: 'Gina' }).ephemeral(PATIENT);
    expect(messageText(asked)).toMatch(/^Delete \*\*Gina\*\* for good\?/);

    await w.sim
      .user('alice')
      .slash('game', 'mafia', { subcommand: 'add-ai', options: { persona: 'Gina' } })
      .ephemeral(PATIENT);
    expect(ginaSeated(liveGame)).toBe(true);
    expect(messageText(await w.sim.user('alice').click(asked, `persona-delete:yes:${id}`).updated(PATIENT))).toMatch(
      /^Deleted \*\*Gina\*\*\. Its seat in <#\d+> is free, and the lobby was told\.$/,
    );
    expect(ginaSeated(liveGame)).toBe(false);
    await w.bot.idle();
    expect(said().map(messageText)).toContain('📢 Gina left the lobby: its owner deleted the persona.');
  });

  it('GIVEN Gina seated in a lobby WHEN the store is asked to delete her directly THEN it refuses: no seat may play a deleted persona', async () => {
    const { id } = await lobbyWithGina({ seated: true });
    const removed = await w.personas.remove({ userId: w.sim.user('alice').id, guildId: w.sim.guild().id, canManageServer: true }, id);
    expect(removed).toEqual({
      ok: false,
      error: { code: 'in_game', message: 'Gina is seated in an open lobby; free its seat there first.' },
    });
  });
});
