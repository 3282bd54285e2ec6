import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { messageText, type SimMessage } from '../../../scripts/fakes/discord/index.ts';
import { startWorld, type World } from './harness.ts';

let w: World;
beforeEach(async () => {
  w = await startWorld();
});
afterEach(() => w.close());

const create = (user: string, options: Record<string, string | number | boolean> = {}) =>
  w.sim.user(user).slash('game', 'mafia', { subcommand: 'create', options });

function embedText(m: SimMessage): string {
  return JSON.stringify(m.embeds);
}

describe('/mafia lobby on Discord', () => {
  it('GIVEN a lobby WHEN bob joins by button, the host adds AI personas and starts THEN each human gets only their own role by DM', async () => {
    // GIVEN alice opens a lobby: she is seated as host
    const lobby = await create('alice').public();
    expect(embedText(lobby)).toContain('alice (host)');

    // WHEN bob clicks Join
    const joined = await w.sim.user('bob').click(lobby, `lobby:join:${w.bot.liveGames.live[0]!.state.id}`).updated();
    expect(embedText(joined)).toContain('bob');

    // AND alice seats three starter personas (autocomplete, then the option)
    const choices = await w.sim
      .user('alice')
      .autocomplete('game', 'mafia', { subcommand: 'add-ai', options: { persona: 'sher' }, focused: 'persona' })
      .choices();
    expect(choices[0]?.name).toBe('Sherlock Holmes');
    await w.sim
      .user('alice')
      .slash('game', 'mafia', { subcommand: 'add-ai', options: { persona: String(choices[0]!.value) } })
      .ephemeral();
    for (const name of ['Hercule Poirot', 'Miss Marple']) {
      expect(
        messageText(
          await w.sim
            .user('alice')
            .slash('game', 'mafia', { subcommand: 'add-ai', options: { persona: name } })
            .ephemeral(),
        ),
      ).toContain(name);
    }
    // The seats the host adds show in the lobby within two seconds of being stored, several in one edit.
    await w.bot.idle();
    w.timers.advanceTo(w.timers.now() + 2000);
    await w.sim.until(() => embedText(w.sim.messagesIn('game')[0]!).includes('Miss Marple'));

    // AND starts
    const gameId = w.bot.liveGames.live[0]!.state.id;
    await w.sim.user('alice').click(lobby, `lobby:start:${gameId}`).updated();

    // THEN alice and bob each get one role card, with their own role only
    await w.sim.until(() => w.sim.dmsTo('alice').length > 0 && w.sim.dmsTo('bob').length > 0);
    await w.bot.idle();
    const state = w.bot.liveGames.live[0]!.state;
    for (const name of ['alice', 'bob']) {
      const me = state.players.find((p) => p.name === name)!;
      // The role card (with the first night menu, for a night role).
      const dms = w.sim.dmsTo(name).filter((m) => embedText(m).includes('You are the'));
      expect(dms).toHaveLength(1);
      const card = embedText(dms[0]!);
      const { getRole } = await import('../../../src/game/index.ts');
      expect(card).toContain(`You are the ${getRole(me.role!).name}`);
      // No other seat's role is named as theirs (Mafia see teammates, which the engine allows).
      expect(card).not.toContain(state.players.find((p) => p.id !== me.id && p.kind === 'human')!.name + ' (');
    }
    expect(w.sim.dmsTo('carol')).toHaveLength(0);
    // The lobby now shows a started game without buttons, stored as running
    await w.sim.until(() => embedText(w.sim.messagesIn('game')[0]!).includes('game started'));
    expect(w.sim.messagesIn('game')[0]!.components).toHaveLength(0);
    expect(await w.games.listRunningGameIds()).toEqual([gameId]);
    expect(w.sim.failedRequests()).toEqual([]);
  });
});
