/** A person who leaves the server mid-game does not stay seated forever. */
import { afterEach, describe, expect, it } from 'vitest';
import { getRole } from '../../../src/game/index.ts';
import { messageText } from '../../../scripts/fakes/discord/index.ts';
import { startWorld, type World } from './harness.ts';
import { openGame, seated, settle, toNextPhase } from './playing.ts';

let w: World | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

describe('leaving the server', () => {
  it('GIVEN a running game WHEN bob leaves the server THEN at the next phase change he is out as "left the game", his role shown, and the game goes on without him', async () => {
    w = await startWorld({ seed: 5 });
    const table = await openGame(w);
    const bob = seated(table.state, 'bob');
    expect(bob.alive).toBe(true);

    w.sim.removeMember('Club', 'bob');
    await toNextPhase(w, table);
    await settle(w, table);

    const died = table.state.log.find((e) => e.type === 'player_died' && e.payload.playerId === bob.id);
    expect(died?.type === 'player_died' && died.payload).toMatchObject({ cause: 'left', role: bob.role });
    expect(seated(table.state, 'bob').alive).toBe(false);
    const role = getRole(bob.role!).name;
    expect(
      w.sim
        .messagesIn('game')
        .map(messageText)
        .some((t) => t.includes('bob left the game') && t.includes(role)),
    ).toBe(true);
  });
});
